#!/usr/bin/env python3
"""Writes tests/vectors/presets.json: each preset with the definition it follows and values taken
from its library's documentation or tests. Values given there as expressions (ranx's tests) are
evaluated here with the same expression; everything else is copied as the library prints it.
Run it after editing a preset or a value."""
import json
import math
import pathlib

OUT = pathlib.Path(__file__).with_name("presets.json")
log2 = math.log2

EXAMPLE = {
  "ranking": "doc score\nd3 0.9\nd1 0.5\nd2 0.5\n",
  "judgments": "d1 3\nd2 2\nd3 0\nd4 1\n",
  "qrels": "1 0 d1 3\n1 0 d2 2\n1 0 d3 0\n1 0 d4 1\n",
  "run": "1 Q0 d3 1 0.9 run\n1 Q0 d1 2 0.5 run\n1 Q0 d2 3 0.5 run\n",
}

def sk_ranking(scores):
    return "doc,score\n" + "".join(f"{d},{s}\n" for d, s in zip("abcde", scores))
SK_JUDG = "a 10\nb 0\nc 0\nd 1\ne 5\n"

def ranx_case(pred):
    return "\n".join(str(d) for d in pred) + "\n"
RANX_JUDG = "2 5\n4 4\n5 3\n10 2\n"
idcg_j = 5/log2(2) + 4/log2(3) + 3/log2(4) + 2/log2(5)
idcg_b = (2**5-1)/log2(2) + (2**4-1)/log2(3) + (2**3-1)/log2(4) + (2**2-1)/log2(5)

# Spark's RankingMetricsSuite: three queries of predictions and ground-truth sets (every label
# gains 1); the third query's ground truth is empty.
SPARK_PRED = [[1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3, 4, 5]]
SPARK_LABELS = [[1, 2, 3, 4, 5], [1, 2, 3], []]
SPARK_QRELS = "".join(f"{q} 0 {d} 1\n" for q, labels in enumerate(SPARK_LABELS, 1) for d in labels) + "3 0 0 0\n"
SPARK_RUN = "".join(f"{q} Q0 {d} {r} {100 - r} spark\n" for q, pred in enumerate(SPARK_PRED, 1) for r, d in enumerate(pred, 1))

# pyNTCIREVAL's test data: tests/dat/sample.rel (levels L0-L3) and sample.res.
NTCIR_REL = "".join(f"dummy{i:02d} {level}\n" for i, level in enumerate([3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0], 1))
NTCIR_RES = "dummy11\ndummy01\ndummy12\ndummy04\n"
NTCIR_README_QRELS = "".join(f"{d} {level}\n" for d, level in enumerate([2, 0, 1, 0, 1, 0, 0, 2, 0, 0]))
NTCIR_README_RANKING = "".join(f"{d}\n" for d in range(10))

presets = [
 {"name": "trec_eval",
  "library": "trec_eval 10.0, usnistgov/trec_eval",
  "definition": "m_ndcg.c: gain = the grade (or the -m ndcg.g=gain map), discount log2(rank + 1), IDCG over every judged document best first (the whole ideal, whatever the ranking's length); a document missing from the qrels gains 0. The run is ranked by score descending, ties by docno descending (trec_eval's comparison of results). NDCG is 0 when IDCG is 0.",
  "values": [
   {"from": "test/out.test.a (trec_eval -a test/qrels.test test/results.test)", "qrels": "trec_eval-10.0/qrels.test", "run": "trec_eval-10.0/results.test", "measure": "ndcg", "query": "all", "value": 0.4021, "decimals": 4},
   {"from": "test/out.test.aq (the same with -q)", "qrels": "trec_eval-10.0/qrels.test", "run": "trec_eval-10.0/results.test", "measure": "ndcg", "query": "301", "value": 0.1584, "decimals": 4},
   {"from": "test/out.test.aq", "qrels": "trec_eval-10.0/qrels.test", "run": "trec_eval-10.0/results.test", "measure": "ndcg", "query": "302", "value": 0.6617, "decimals": 4},
  ]},
 {"name": "trec_eval-ndcg_cut",
  "library": "trec_eval 10.0, usnistgov/trec_eval",
  "definition": "m_ndcg_cut.c: as ndcg, with DCG and IDCG both cut at k (the grades are the gains; -m ndcg's gain map does not apply).",
  "values": [
   {"from": "test/out.test.a", "qrels": "trec_eval-10.0/qrels.test", "run": "trec_eval-10.0/results.test", "measure": "ndcg_cut.10", "query": "all", "value": 0.3016, "decimals": 4},
   {"from": "test/out.test.a", "qrels": "trec_eval-10.0/qrels.test", "run": "trec_eval-10.0/results.test", "measure": "ndcg_cut.20", "query": "all", "value": 0.3525, "decimals": 4},
   {"from": "test/out.test.aq", "qrels": "trec_eval-10.0/qrels.test", "run": "trec_eval-10.0/results.test", "measure": "ndcg_cut.10", "query": "302", "value": 0.7530, "decimals": 4},
  ]},
 {"name": "sklearn",
  "library": "scikit-learn, sklearn.metrics.ndcg_score",
  "definition": "sklearn/metrics/_ranking.py: _dcg_sample_scores and _tie_averaged_dcg: gain = y_true as given, discount log_base(rank + 1) with log_base = 2; the ideal is y_true of the same list sorted (the ranked documents only), cut at k; tied scores share the mean gain of their group (ignore_ties=False, McSherry & Najork 2008). NDCG is 0 when IDCG is 0. Negative y_true: the docstring warns the result may leave [0, 1], and current versions refuse it; the preset keeps negative gains.",
  "values": [
   {"from": "sklearn/metrics/_ranking.py, ndcg_score docstring: ndcg_score(true_relevance, scores) with scores .1, .2, .3, 4, 70", "ranking": sk_ranking([.1,.2,.3,4,70]), "judgments": SK_JUDG, "options": {}, "expect": {"ndcgAtK": 0.69}, "tolerance": 0.01},
   {"from": "ndcg_score docstring: scores .05, 1.1, 1., .5, .0", "ranking": sk_ranking([.05,1.1,1.,.5,.0]), "judgments": SK_JUDG, "options": {}, "expect": {"ndcgAtK": 0.49}, "tolerance": 0.01},
   {"from": "ndcg_score docstring: the same with k=4", "ranking": sk_ranking([.05,1.1,1.,.5,.0]), "judgments": SK_JUDG, "options": {"k": 4}, "expect": {"ndcgAtK": 0.35}, "tolerance": 0.01},
   {"from": "ndcg_score docstring: tied scores 1, 0, 0, 0, 1 with k=1, ties averaged", "ranking": sk_ranking([1,0,0,0,1]), "judgments": SK_JUDG, "options": {"k": 1}, "expect": {"ndcgAtK": 0.75}, "tolerance": 0.01},
   {"from": "dcg_score docstring: dcg_score(true_relevance, scores) with scores .1, .2, .3, 4, 70", "ranking": sk_ranking([.1,.2,.3,4,70]), "judgments": SK_JUDG, "options": {}, "expect": {"dcgAtK": 9.49}, "tolerance": 0.01},
   {"from": "dcg_score docstring: the same with k=2", "ranking": sk_ranking([.1,.2,.3,4,70]), "judgments": SK_JUDG, "options": {"k": 2}, "expect": {"dcgAtK": 5.63}, "tolerance": 0.01},
   {"from": "dcg_score docstring: tied scores 1, 0, 0, 0, 1 with k=1: (10 + 5) / 2", "ranking": sk_ranking([1,0,0,0,1]), "judgments": SK_JUDG, "options": {"k": 1}, "expect": {"dcgAtK": 7.5}, "tolerance": 0.01},
  ]},
 {"name": "torchmetrics",
  "library": "torchmetrics, Lightning-AI/torchmetrics (retrieval_normalized_dcg, RetrievalNormalizedDCG)",
  "definition": "src/torchmetrics/functional/retrieval/ndcg.py: scikit-learn's _dcg_sample_scores and _tie_average_dcg translated to torch: gain = the target, discount log2(rank + 1), the ideal from the same documents' targets sorted, cut at top_k, tied predictions share the mean gain; NDCG is 0 when IDCG is 0. RetrievalNormalizedDCG averages over queries; a query without a positive target counts 0.0 (empty_target_action='neg', the default, src/torchmetrics/retrieval/base.py). Its tests compare it with scikit-learn's ndcg_score (tests/unittests/retrieval/test_ndcg.py).",
  "values": [
   {"from": "src/torchmetrics/functional/retrieval/ndcg.py docstring: preds .1, .2, .3, 4, 70; target 10, 0, 0, 1, 5", "ranking": sk_ranking([.1,.2,.3,4,70]), "judgments": SK_JUDG, "options": {}, "expect": {"ndcgAtK": 0.6957}, "decimals": 4},
   {"from": "src/torchmetrics/retrieval/ndcg.py docstring: RetrievalNormalizedDCG over indexes 0, 0, 0, 1, 1, 1, 1", "qrelsText": "0 0 a 0\n0 0 b 0\n0 0 c 1\n1 0 d 0\n1 0 e 1\n1 0 f 0\n1 0 g 1\n", "runText": "0 Q0 a 1 0.2 t\n0 Q0 b 2 0.3 t\n0 Q0 c 3 0.5 t\n1 Q0 d 1 0.1 t\n1 Q0 e 2 0.3 t\n1 Q0 f 3 0.5 t\n1 Q0 g 4 0.2 t\n", "measure": "ndcg", "query": "all", "value": 0.8467, "decimals": 4},
   {"from": "src/torchmetrics/retrieval/base.py: empty_target_action='neg' (the default) counts a query without a positive target as 0.0", "ranking": "doc,score\na,0.9\nb,0.1\n", "judgments": "a 0\nb 0\n", "options": {}, "expect": {"ndcgAtK": 0.0}, "decimals": 4},
  ]},
 {"name": "ranx",
  "library": "ranx, AmenRa/ranx (metric ndcg)",
  "definition": "ranx/metrics/ndcg.py, _dcg with jarvelin=True: gain = the relevance, discount log2(rank + 1), IDCG from the qrels sorted best first, both cut at k (k = 0: the whole run and the whole qrels); the run is sorted by score descending with numba's argsort, which keeps tied documents in the order given for short lists; relevance below rel_lvl (1) is dropped; NDCG is 0 when IDCG is 0.",
  "values": [
   {"from": "tests/unit/ranx/metrics_test.py, test_ndcg_jarvelin, y_pred_1 (ids 1-5, k=10)", "ranking": ranx_case([1,2,3,4,5]), "judgments": RANX_JUDG, "options": {"k": 10}, "expect": {"ndcgAtK": (5/log2(3) + 4/log2(5) + 3/log2(6)) / idcg_j}, "decimals": 10},
   {"from": "tests/unit/ranx/metrics_test.py, test_ndcg_jarvelin, y_pred_2 (ids 10, 5, 2, 4, 3)", "ranking": ranx_case([10,5,2,4,3]), "judgments": RANX_JUDG, "options": {"k": 10}, "expect": {"ndcgAtK": (2/log2(2) + 3/log2(3) + 5/log2(4) + 4/log2(5)) / idcg_j}, "decimals": 10},
   {"from": "tests/unit/ranx/metrics_test.py, test_ndcg_jarvelin, y_pred_3 (no relevant document)", "ranking": ranx_case([1,3,6,7,8]), "judgments": RANX_JUDG, "options": {"k": 10}, "expect": {"ndcgAtK": 0.0}, "decimals": 10},
   {"from": "tests/unit/ranx/metrics_test.py, test_dcg_jarvelin, y_pred_1", "ranking": ranx_case([1,2,3,4,5]), "judgments": RANX_JUDG, "options": {"k": 10}, "expect": {"dcgAtK": 5/log2(3) + 4/log2(5) + 3/log2(6)}, "decimals": 10},
  ]},
 {"name": "ranx-burges",
  "library": "ranx, AmenRa/ranx (metric ndcg_burges)",
  "definition": "ranx/metrics/ndcg.py, _dcg with jarvelin=False: as ranx's ndcg with gain 2^rel - 1 (Burges et al. 2005).",
  "values": [
   {"from": "tests/unit/ranx/metrics_test.py, test_ndcg_burges, y_pred_1", "ranking": ranx_case([1,2,3,4,5]), "judgments": RANX_JUDG, "options": {"k": 10}, "expect": {"ndcgAtK": ((2**5-1)/log2(3) + (2**4-1)/log2(5) + (2**3-1)/log2(6)) / idcg_b}, "decimals": 10},
   {"from": "tests/unit/ranx/metrics_test.py, test_ndcg_burges, y_pred_2", "ranking": ranx_case([10,5,2,4,3]), "judgments": RANX_JUDG, "options": {"k": 10}, "expect": {"ndcgAtK": ((2**2-1)/log2(2) + (2**3-1)/log2(3) + (2**5-1)/log2(4) + (2**4-1)/log2(5)) / idcg_b}, "decimals": 10},
   {"from": "tests/unit/ranx/metrics_test.py, test_dcg_burges, y_pred_2", "ranking": ranx_case([10,5,2,4,3]), "judgments": RANX_JUDG, "options": {"k": 10}, "expect": {"dcgAtK": (2**2-1)/log2(2) + (2**3-1)/log2(3) + (2**5-1)/log2(4) + (2**4-1)/log2(5)}, "decimals": 10},
  ]},
 {"name": "ir_measures",
  "library": "ir_measures, terrierteam/ir_measures (nDCG, nDCG@k)",
  "definition": "ir_measures computes nDCG and nDCG@k with its default provider pytrec_eval, which runs trec_eval's ndcg and ndcg_cut (ir_measures/providers/pytrec_eval_provider.py): trec_eval's conventions, the measure setting the depth.",
  "values": [
   {"from": "README.md: ir_measures.calc_aggregate([..., nDCG, ...]) gives nDCG 0.8154648767857288", "qrelsText": "Q0 0 D0 0\nQ0 0 D1 1\nQ1 0 D0 0\nQ1 0 D3 2\n", "runText": "Q0 Q0 D0 1 1.2 r\nQ0 Q0 D1 2 1.0 r\nQ1 Q0 D0 1 2.4 r\nQ1 Q0 D3 2 3.6 r\n", "measure": "ndcg", "query": "all", "value": 0.8154648767857288, "decimals": 12},
   {"from": "README.md: iter_calc gives nDCG 0.6309297535714575 for Q0", "qrelsText": "Q0 0 D0 0\nQ0 0 D1 1\nQ1 0 D0 0\nQ1 0 D3 2\n", "runText": "Q0 Q0 D0 1 1.2 r\nQ0 Q0 D1 2 1.0 r\nQ1 Q0 D0 1 2.4 r\nQ1 Q0 D3 2 3.6 r\n", "measure": "ndcg", "query": "Q0", "value": 0.6309297535714575, "decimals": 12},
   {"from": "README.md: iter_calc gives nDCG@10 0.6309297535714575 for Q0", "qrelsText": "Q0 0 D0 0\nQ0 0 D1 1\nQ1 0 D0 0\nQ1 0 D3 2\n", "runText": "Q0 Q0 D0 1 1.2 r\nQ0 Q0 D1 2 1.0 r\nQ1 Q0 D0 1 2.4 r\nQ1 Q0 D3 2 3.6 r\n", "measure": "ndcg_cut.10", "query": "Q0", "value": 0.6309297535714575, "decimals": 12},
  ]},
 {"name": "gdeval",
  "library": "gdeval.pl, the TREC Web track's graded evaluation script (run through ir_measures' gdeval provider)",
  "definition": "gdeval.pl 1.3: gain 2^g - 1, discount log2(rank + 1), the ideal from the judged documents of positive grade, cut at k (20 by default); a run is ordered by score, then docno descending (its runOrder); results printed with 5 decimals.",
  "values": [
   {"from": "terrierteam/ir_measures, test/test_gdeval.py: nDCG@20 of query 0", "qrelsText": "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 2\n", "runText": "0 Q0 D0 1 0.8 run\n0 Q0 D2 2 0.7 run\n0 Q0 D1 3 0.3 run\n0 Q0 D3 4 0.4 run\n0 Q0 D4 5 0.1 run\n1 Q0 D1 1 0.8 run\n1 Q0 D3 2 0.7 run\n1 Q0 D4 3 0.3 run\n1 Q0 D2 4 0.4 run\n", "measure": "ndcg_cut.20", "query": "0", "value": 0.6201, "decimals": 5},
   {"from": "test/test_gdeval.py: nDCG@20 of query 1", "qrelsText": "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 2\n", "runText": "0 Q0 D0 1 0.8 run\n0 Q0 D2 2 0.7 run\n0 Q0 D1 3 0.3 run\n0 Q0 D3 4 0.4 run\n0 Q0 D4 5 0.1 run\n1 Q0 D1 1 0.8 run\n1 Q0 D3 2 0.7 run\n1 Q0 D4 3 0.3 run\n1 Q0 D2 4 0.4 run\n", "measure": "ndcg_cut.20", "query": "1", "value": 0.35099, "decimals": 5},
   {"from": "test/test_gdeval.py: nDCG@2 of query 0", "qrelsText": "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 2\n", "runText": "0 Q0 D0 1 0.8 run\n0 Q0 D2 2 0.7 run\n0 Q0 D1 3 0.3 run\n0 Q0 D3 4 0.4 run\n0 Q0 D4 5 0.1 run\n1 Q0 D1 1 0.8 run\n1 Q0 D3 2 0.7 run\n1 Q0 D4 3 0.3 run\n1 Q0 D2 4 0.4 run\n", "measure": "ndcg_cut.2", "query": "0", "value": 0.17377, "decimals": 5},
   {"from": "test/test_gdeval.py: nDCG@2 of query 1", "qrelsText": "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 2\n", "runText": "0 Q0 D0 1 0.8 run\n0 Q0 D2 2 0.7 run\n0 Q0 D1 3 0.3 run\n0 Q0 D3 4 0.4 run\n0 Q0 D4 5 0.1 run\n1 Q0 D1 1 0.8 run\n1 Q0 D3 2 0.7 run\n1 Q0 D4 3 0.3 run\n1 Q0 D2 4 0.4 run\n", "measure": "ndcg_cut.2", "query": "1", "value": 0.38685, "decimals": 5},
  ]},
 {"name": "lightgbm",
  "library": "LightGBM, microsoft/LightGBM (metric ndcg, eval_at)",
  "definition": "src/metric/dcg_calculator.cpp: label_gain 2^i - 1 by default, discount 1 / log2(2 + i) for 0-based i, documents sorted by score with std::stable_sort (ties keep their order), the maximum DCG from the query's own labels, both cut at k; src/metric/rank_metric.hpp: a query whose maximum DCG is 0 scores 1.",
  "noValues": "LightGBM's tests (tests/python_package_test/test_engine.py, test_sklearn.py) check NDCG only as bounds after training a model (ndcg@1 > 0.5674), and its documentation prints no NDCG of a given ranking, so there is no value of its own to reproduce; the preset follows the source lines cited.",
  "values": []},
 {"name": "xgboost",
  "library": "XGBoost, dmlc/xgboost (eval_metric ndcg, ndcg@k)",
  "definition": "src/metric/rank_metric.cc: gain 2^label - 1 (ndcg_exp_gain, the default), discount log2(rank + 1), the ideal from the group's own labels, both cut at k; tied predictions keep their order (the tests below depend on it); a group without relevant documents scores 1 ('ndcg-' gives 0).",
  "values": [
   {"from": "tests/cpp/metric/test_rank_metric.cc: ndcg, preds 0.1, 0.9, 0.1, 0.9, labels 0, 0, 1, 1 (checked to 0.001)", "ranking": "doc,score\na,0.1\nb,0.9\nc,0.1\nd,0.9\n", "judgments": "a 0\nb 0\nc 1\nd 1\n", "options": {}, "expect": {"ndcgAtK": 0.6509}, "tolerance": 0.001},
   {"from": "tests/cpp/metric/test_rank_metric.cc: ndcg@2 of the same", "ranking": "doc,score\na,0.1\nb,0.9\nc,0.1\nd,0.9\n", "judgments": "a 0\nb 0\nc 1\nd 1\n", "options": {"k": 2}, "expect": {"ndcgAtK": 0.3868}, "tolerance": 0.001},
   {"from": "tests/cpp/metric/test_rank_metric.cc: ndcg, preds 0, 1, labels 0, 1", "ranking": "doc,score\na,0\nb,1\n", "judgments": "a 0\nb 1\n", "options": {}, "expect": {"ndcgAtK": 1.0}, "tolerance": 1e-10},
   {"from": "src/metric/rank_metric.cc: a group without relevant documents scores 1 (test_rank_metric.cc checks it on an empty group)", "ranking": "doc,score\na,1\n", "judgments": "a 0\n", "options": {}, "expect": {"ndcgAtK": 1.0}, "tolerance": 1e-10},
  ]},
 {"name": "tf-ranking",
  "library": "TF-Ranking, tensorflow/ranking (NDCGMetric, RankingMetricKey.NDCG)",
  "definition": "tensorflow_ranking/python/metrics_impl.py, NDCGMetric: gain 2^label - 1 (_DEFAULT_GAIN_FN), discount log2(rank + 1) (_DEFAULT_RANK_DISCOUNT_FN), the ideal from the same list's labels sorted, both cut at topn (the whole list when None); divide_no_nan gives 0 when the ideal is 0. utils.py, sort_by_scores: tied scores are shuffled at random before sorting (shuffle_ties=True), so one evaluation of a list with ties gives one of several values; the preset averages tied gains (ties=average), which is the mean over those shuffles. A negative label marks padding: TF-Ranking moves the document below every other and counts it 0; the preset counts it 0 where it stands (the same value when padding comes last, as it does in a padded batch).",
  "values": [
   {"from": "tensorflow_ranking/python/metrics_impl_test.py, NDCGMetricTest.test_ndcg_should_operate_on_graded_relevance: scores 4, 3, 2, 1; labels 0, 3, 1, 0", "ranking": "doc,score\na,4\nb,3\nc,2\nd,1\n", "judgments": "a 0\nb 3\nc 1\nd 0\n", "options": {}, "expect": {"ndcgAtK": ((2**3-1)/log2(3) + 1/log2(4)) / ((2**3-1)/log2(2) + 1/log2(3))}, "decimals": 10},
   {"from": "metrics_impl_test.py, test_ndcg_should_handle_topn: scores 3, 2, 1; labels 1, 0, 2; topn=1", "ranking": "doc,score\na,3\nb,2\nc,1\n", "judgments": "a 1\nb 0\nc 2\n", "options": {"k": 1}, "expect": {"ndcgAtK": (1/log2(2)) / ((2**2-1)/log2(2))}, "decimals": 10},
   {"from": "metrics_impl_test.py, test_ndcg_should_handle_topn: the same list, topn=2", "ranking": "doc,score\na,3\nb,2\nc,1\n", "judgments": "a 1\nb 0\nc 2\n", "options": {"k": 2}, "expect": {"ndcgAtK": (1/log2(2)) / ((2**2-1)/log2(2) + 1/log2(3))}, "decimals": 10},
   {"from": "metrics_impl_test.py, test_ndcg_should_handle_topn: the same list, topn=6 (longer than the list)", "ranking": "doc,score\na,3\nb,2\nc,1\n", "judgments": "a 1\nb 0\nc 2\n", "options": {"k": 6}, "expect": {"ndcgAtK": (1/log2(2) + (2**2-1)/log2(4)) / ((2**2-1)/log2(2) + 1/log2(3))}, "decimals": 10},
   {"from": "tensorflow_ranking/python/metrics_test.py, test_make_normalized_discounted_cumulative_gain_fn: the mean over two lists (scores 1, 3, 2 with labels 0, 0, 1; scores 1, 2, 3 with labels 0, 1, 2)", "qrelsText": "1 0 a 0\n1 0 b 0\n1 0 c 1\n2 0 a 0\n2 0 b 1\n2 0 c 2\n", "runText": "1 Q0 a 3 1 t\n1 Q0 b 1 3 t\n1 Q0 c 2 2 t\n2 Q0 a 3 1 t\n2 Q0 b 2 2 t\n2 Q0 c 1 3 t\n", "measure": "ndcg", "query": "all", "value": ((1/log2(3)) / 1 + 1.0) / 2, "tolerance": 1e-5},
  ]},
 {"name": "spark",
  "library": "Spark MLlib, apache/spark (RankingMetrics.ndcgAt)",
  "definition": "mllib/src/main/scala/org/apache/spark/mllib/evaluation/RankingMetrics.scala, ndcgAt(k): for each query, n = min(max(|prediction|, |labels|), k); DCG adds 2^rel - 1 over ln(i + 2) for the first n predictions, IDCG the same for the first n ground-truth labels in the order given (Spark does not sort them: the preset's ideal is the judgments best first, the same when the labels are given best first, as the documentation's examples do); without relevance values every ground-truth label gains 1. A query with an empty ground truth, or an IDCG of 0, scores 0 and counts in the mean. The natural log cancels in NDCG; DCG and IDCG are shown with it (base e).",
  "values": [
   {"from": "mllib/src/test/scala/org/apache/spark/mllib/evaluation/RankingMetricsSuite.scala, 'Ranking metrics: MAP, NDCG': ndcgAt(3) = 1/3 over three queries, absTol 1e-5 (the third query's ground truth is empty: written here as one judged non-relevant document, so that the mean counts it)", "qrelsText": SPARK_QRELS, "runText": SPARK_RUN, "measure": "ndcg_cut.3", "query": "all", "value": 1/3, "tolerance": 1e-5},
   {"from": "RankingMetricsSuite.scala: ndcgAt(5) = 0.328788", "qrelsText": SPARK_QRELS, "runText": SPARK_RUN, "measure": "ndcg_cut.5", "query": "all", "value": 0.328788, "tolerance": 1e-5},
   {"from": "RankingMetricsSuite.scala: ndcgAt(10) = 0.487913 (ndcgAt(15) equals it)", "qrelsText": SPARK_QRELS, "runText": SPARK_RUN, "measure": "ndcg_cut.10", "query": "all", "value": 0.487913, "tolerance": 1e-5},
   {"from": "RankingMetricsSuite.scala: ndcgAt(15) equals ndcgAt(10)", "qrelsText": SPARK_QRELS, "runText": SPARK_RUN, "measure": "ndcg_cut.15", "query": "all", "value": 0.487913, "tolerance": 1e-5},
  ]},
 {"name": "ntcir",
  "library": "NTCIREVAL (Sakai), through its Python port mpkato/pyNTCIREVAL (MSnDCG@l)",
  "definition": "pyNTCIREVAL/metrics/ms_ndcg.py and grade_metric.py (NTCIREVAL's definitions): the gain of a document is the grade given to its relevance level (-g 1:2:3 gives levels L1, L2, L3 the gains 1, 2, 3; L0 and unjudged documents gain 0), discount the natural log of rank + 1, the ideal from every judged document, both cut at l; the list is taken in the order given. NTCIREVAL's original nDCG@l (Järvelin and Kekäläinen, log base 2) is the lecture preset's discount. NTCIREVAL's relevance files write levels as L0, L1, ...: here as numbers.",
  "values": [
   {"from": "pyNTCIREVAL tests/dat/res_test_compute.txt (NTCIREVAL's output for tests/dat/sample.rel and sample.res with -g 1:2:3): MSnDCG@1000= 0.2760", "ranking": NTCIR_RES, "judgments": NTCIR_REL, "options": {"k": 1000}, "expect": {"ndcgAtK": 0.2760}, "decimals": 4},
   {"from": "tests/dat/res_test_compute_cutoff.txt (--cutoffs 2): MSnDCG@0002= 0.3869", "ranking": NTCIR_RES, "judgments": NTCIR_REL, "options": {"k": 2}, "expect": {"ndcgAtK": 0.3869}, "decimals": 4},
   {"from": "tests/dat/res_test_compute_grade.txt (-g 1:4:9): MSnDCG@1000= 0.2947", "ranking": NTCIR_RES, "judgments": NTCIR_REL, "options": {"k": 1000, "gain": {"1": 1, "2": 4, "3": 9}}, "expect": {"ndcgAtK": 0.2947}, "decimals": 4},
   {"from": "README.md, 'nDCG@k (Microsoft version)': grades [1, 2], cutoff 5 gives 0.6885695823073614", "ranking": NTCIR_README_RANKING, "judgments": NTCIR_README_QRELS, "options": {"k": 5}, "expect": {"ndcgAtK": 0.6885695823073614}, "decimals": 12},
   {"from": "tests/test_usage.py, test_ms_ndcg: grades [0, 1, 2] (level 1 gains 0, level 2 gains 1), cutoff 5 gives 0.6131471927654584", "ranking": NTCIR_README_RANKING, "judgments": NTCIR_README_QRELS, "options": {"k": 5, "gain": {"1": 0, "2": 1}}, "expect": {"ndcgAtK": 0.6131471927654584}, "decimals": 12},
  ]},
 {"name": "elasticsearch",
  "library": "Elasticsearch rank_eval, metric dcg with normalize: true",
  "definition": "modules/rank-eval DiscountedCumulativeGain.java: gain 2^rating - 1, discount log2(rank + 1), the ideal from every rated document sorted, both cut at k (10 by default); hits in the order returned; an unrated hit counts 0 unless unknown_doc_rating gives it a rating (option unjudgedGrade); NDCG 0 when IDCG is 0.",
  "values": [
   {"from": "modules/rank-eval/src/test/java/org/elasticsearch/index/rankeval/DiscountedCumulativeGainTests.java, testDCGAt: ratings 3, 2, 3, 0, 1, 2", "ranking": "0\n1\n2\n3\n4\n5\n", "judgments": "0 3\n1 2\n2 3\n3 0\n4 1\n5 2\n", "options": {"k": 10}, "expect": {"dcgAtK": 13.84826362927298, "ndcgAtK": 13.84826362927298 / 14.595390756454922}, "decimals": 12},
   {"from": "DiscountedCumulativeGainTests.java, testDCGAtSixMissingRatings: hits 3 and 5 unrated", "ranking": "0\n1\n2\n3\n4\n5\n", "judgments": "0 3\n1 2\n2 3\n4 1\n", "options": {"k": 10}, "expect": {"dcgAtK": 12.779642067948913, "ndcgAtK": 12.779642067948913 / 13.347184833073591}, "decimals": 12},
   {"from": "DiscountedCumulativeGainTests.java, testDCGAtFourMoreRatings: four hits, more ratings than hits", "ranking": "0\n1\n2\n3\n", "judgments": "0 3\n1 2\n2 3\n4 1\n", "options": {"k": 10}, "expect": {"dcgAtK": 12.392789260714371, "ndcgAtK": 12.392789260714371 / 13.347184833073591}, "decimals": 12},
  ]},
 {"name": "lecture",
  "library": "the lecture notes (COMP3009J), seeds/000",
  "definition": "DCG[1] = G[1], DCG[i] = DCG[i-1] + G[i] / log2 i (Järvelin & Kekäläinen 2002 with b = 2), linear gain, the ideal from the judged documents, cut at the rank; the slides print one decimal (two for NDCG).",
  "values": [
   {"from": "seeds/000, 'NDCG@10 ... here it is 0.29'", "ranking": "d123 1\nd84 0\nd56 1\nd6 0\nd8 0\nd9 3\nd511 0\nd129 0\nd187 0\nd25 2\nd38 0\nd48 0\nd250 0\nd113 0\nd3 3\n", "judgments": "d3 3\nd5 3\nd9 3\nd25 2\nd39 2\nd44 2\nd56 1\nd71 1\nd89 1\nd123 1\n", "options": {"k": 10}, "expect": {"ndcgAtK": 0.29}, "decimals": 2},
   {"from": "seeds/000, DCG vector: 4.2 at rank 15", "ranking": "d123 1\nd84 0\nd56 1\nd6 0\nd8 0\nd9 3\nd511 0\nd129 0\nd187 0\nd25 2\nd38 0\nd48 0\nd250 0\nd113 0\nd3 3\n", "judgments": "d3 3\nd5 3\nd9 3\nd25 2\nd39 2\nd44 2\nd56 1\nd71 1\nd89 1\nd123 1\n", "options": {"k": 15}, "expect": {"dcgAtK": 4.2}, "decimals": 1},
   {"from": "seeds/000, IDCG vector: 11.8 at rank 10", "ranking": "d123 1\nd84 0\nd56 1\nd6 0\nd8 0\nd9 3\nd511 0\nd129 0\nd187 0\nd25 2\nd38 0\nd48 0\nd250 0\nd113 0\nd3 3\n", "judgments": "d3 3\nd5 3\nd9 3\nd25 2\nd39 2\nd44 2\nd56 1\nd71 1\nd89 1\nd123 1\n", "options": {"k": 10}, "expect": {"idcgAtK": 11.8}, "decimals": 1},
  ]},
]

out = {
 "description": "Presets that set every convention as a library does, each with the definition it follows and values from that library's own documentation or tests (the file is named in 'from'). A value is either an explain case (ranking, judgments, options beside the preset, expected summary fields) or a TREC case (qrels and run files under tests/trec, or qrelsText and runText written out; a measure; a query or 'all'). Values are compared after rounding to 'decimals', the precision the library prints, or within 'tolerance' where the library prints fewer digits than rounding would give (scikit-learn's docstrings cut values to two decimals: 0.69 for 0.6957, 9.49 for 9.4995). 'example' is one ranking with tied scores that every preset evaluates; its expected values are those the libraries give. Run by tests/core/presets_test.cpp, tests/wasm/presets.test.mjs and tests/e2e/presets.spec.mjs.",
 "example": {
   **EXAMPLE,
   "expect": {"trec_eval": 0.5800, "ranx": 0.6075, "ranx-burges": 0.6299, "sklearn": 0.6634, "torchmetrics": 0.6634},
   "decimals": 4,
 },
 "sklearnTies": {
   "from": "scikit-learn's ndcg_score docstring: relevance 10, 0, 0, 1, 5; scores 1, 0, 0, 0, 1; k=1",
   "qrels": "1 0 a 10\n1 0 b 0\n1 0 c 0\n1 0 d 1\n1 0 e 5\n",
   "run": "1 Q0 a 1 1 run\n1 Q0 b 2 0 run\n1 Q0 c 3 0 run\n1 Q0 d 4 0 run\n1 Q0 e 5 1 run\n",
   "ranking": sk_ranking([1,0,0,0,1]),
   "judgments": SK_JUDG,
   "measure": "ndcg_cut.1", "k": 1, "value": 0.75,
 },
 "presets": presets,
}
json.dump(out, open(OUT, 'w'), indent=1, ensure_ascii=False)
open(OUT, 'a').write('\n')
