#!/usr/bin/env python3
"""Writes the expected columns of the test vectors from hand-written grade vectors.

This is an independent reference, deliberately naive: it parses no text. Each case states, by
hand, the grade at every rank and the ideal grades (read off the seed documents), and this
script applies the textbook formulas to them. The C++ core, the wasm API and the page must
agree with what it writes. It is not run by the test suite; run it after editing a case:

    python3 tests/vectors/reference.py

Cases that are about errors or warnings only are written by hand in the JSON files themselves.
"""
import json
import math
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent


def gain(grade, opts):
    level = opts.get("relevantFrom")
    if grade < 0 or (level is not None and grade < level):
        return 0.0
    g = opts.get("gain", "linear")
    if g == "linear":
        return float(grade)
    if g == "exponential":
        return 2.0 ** grade - 1.0
    table = {float(k): float(v) for k, v in g.items()}
    return table.get(float(grade), 0.0 if grade == 0 else None)


def discount(rank, opts):
    if opts.get("discount", "log2(rank+1)") == "log2(rank+1)":
        return math.log2(rank + 1)
    base = float(opts.get("base", 2))
    if rank < base:
        return 1.0
    return math.log2(rank) if base == 2 else math.log(rank) / math.log(base)


def round_half_away(x, d):
    s = 10 ** d
    return math.copysign(math.floor(abs(x) * s + 0.5), x) / s


def columns(case):
    opts = case["options"]
    grades = case["grades"]
    docs = case.get("docs", [None] * len(grades))
    repeats = set(case.get("repeatRanks", []))
    ideal = case["idealGrades"]
    ideal_docs = case.get("idealDocs", [None] * len(ideal))
    n = len(grades)
    rows = {k: [] for k in ("rank", "doc", "grade", "gain", "discount", "term", "cg", "dcg",
                            "idealDoc", "idealGrade", "idealGain", "idealTerm", "idcg", "ndcg")}
    rd = opts.get("roundBeforeDividing")
    if rd is not None:
        rows.update({"roundedDcg": [], "roundedIdcg": [], "roundedNdcg": []})
    zero = float(opts.get("ndcgWhenIdcgZero", 0))
    cg = dcg = idcg = 0.0
    for i in range(n):
        r = i + 1
        g = 0.0 if r in repeats else gain(grades[i], opts)
        disc = discount(r, opts)
        cg += g
        dcg += g / disc
        ig = gain(ideal[i], opts) if i < len(ideal) else 0.0
        idcg += ig / disc
        rows["rank"].append(r)
        rows["doc"].append(docs[i])
        rows["grade"].append(grades[i])
        rows["gain"].append(g)
        rows["discount"].append(disc)
        rows["term"].append(g / disc)
        rows["cg"].append(cg)
        rows["dcg"].append(dcg)
        rows["idealDoc"].append(ideal_docs[i] if i < len(ideal) else None)
        rows["idealGrade"].append(ideal[i] if i < len(ideal) else 0)
        rows["idealGain"].append(ig)
        rows["idealTerm"].append(ig / disc)
        rows["idcg"].append(idcg)
        rows["ndcg"].append(dcg / idcg if idcg > 0 else zero)
        if rd is not None:
            a, b = round_half_away(dcg, rd), round_half_away(idcg, rd)
            rows["roundedDcg"].append(a)
            rows["roundedIdcg"].append(b)
            rows["roundedNdcg"].append(a / b if b > 0 else zero)
    k = opts.get("k") or n
    dcg_k = rows["dcg"][min(k, n) - 1] if n else 0.0
    depth = len(ideal) if opts.get("idealDepth") == "whole" else min(k, len(ideal))
    idcg_k = sum(gain(ideal[i], opts) / discount(i + 1, opts) for i in range(depth))
    summary = {"k": k, "dcgAtK": dcg_k, "idcgAtK": idcg_k,
               "ndcgAtK": dcg_k / idcg_k if idcg_k > 0 else zero}
    return rows, summary


def dump(data):
    """JSON with one case field a line and every list of numbers or strings on one line."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    scalar_list = re.compile(r"\[\s*((?:[^\[\]{}\s][^\[\]{}]*?))\s*\]", re.S)
    return scalar_list.sub(lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)


def main():
    for path in sorted(HERE.glob("*.json")):
        data = json.loads(path.read_text())
        changed = False
        for case in data.get("cases", []):
            if "grades" not in case:
                continue
            rows, summary = columns(case)
            case["expect"]["columns"] = rows
            case["expect"]["summary"] = summary
            changed = True
        if changed:
            path.write_text(dump(data) + "\n")
            print("wrote", path.name)


if __name__ == "__main__":
    main()
