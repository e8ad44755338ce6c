#include "ndcg/input.hpp"

#include <doctest/doctest.h>

using namespace ndcg;

TEST_CASE("a single line of three or more numbers is a vector of grades") {
  for (const char* text :
       {"1 0 1 0 0 3", "1, 0, 1, 0, 0, 3", "G = (1, 0, 1, 0, 0, 3)", "[1,0,1,0,0,3]"}) {
    CAPTURE(text);
    const auto r = parse_ranking(text);
    CHECK(r.errors.empty());
    CHECK(r.value.grades_only);
    REQUIRE(r.value.entries.size() == 6);
    CHECK(r.value.entries[5].grade == 3.0);
    CHECK_FALSE(r.value.entries[0].doc.has_value());
  }
}

TEST_CASE("two fields on a single line are a document and its grade") {
  const auto r = parse_ranking("588 1.0");
  CHECK_FALSE(r.value.grades_only);
  REQUIRE(r.value.entries.size() == 1);
  CHECK(r.value.entries[0].doc == "588");
  CHECK(r.value.entries[0].grade == 1.0);
}

TEST_CASE("a bracketed vector with a word in it reports the word") {
  const auto r = parse_ranking("G = (1, x, 3)");
  REQUIRE(r.errors.items().size() == 1);
  CHECK(r.errors.items()[0].column == 9);
}

TEST_CASE("rank columns that disagree with the order are reported") {
  const auto r = parse_ranking("1 a 3\n3 b 2\n");
  CHECK(r.errors.empty());
  REQUIRE(r.warnings.items().size() == 1);
  CHECK(r.warnings.items()[0].line == 2);
  CHECK(r.warnings.items()[0].message.find("rank column says 3") != std::string::npos);
}

TEST_CASE("a grade note that differs from the grade column is reported; the column wins") {
  const auto r = parse_ranking("| 1 | d9 (r: 2) | 3 |\n| 2 | d1 | 0 |");
  REQUIRE(r.value.entries.size() == 2);
  CHECK(r.value.entries[0].grade == 3.0);
  REQUIRE(r.warnings.items().size() == 1);
  CHECK(r.warnings.items()[0].message.find("grade column is used") != std::string::npos);
}

TEST_CASE("a grade note alone gives the grade") {
  const auto r = parse_ranking("d9 (r: 3)\nd1");
  REQUIRE(r.value.entries.size() == 2);
  CHECK(r.value.entries[0].doc == "d9");
  CHECK(r.value.entries[0].grade == 3.0);
  CHECK_FALSE(r.value.entries[1].grade.has_value());
}

TEST_CASE("judgments in set notation may span lines and keep their order") {
  const auto j = parse_judgments("R = {\n  [d_3, 3],\n  [d_{25}, 2],\n  [d ₁₂₃, 1]\n}");
  CHECK(j.errors.empty());
  REQUIRE(j.value.items.size() == 3);
  CHECK(j.value.items[0].doc == "d3");
  CHECK(j.value.items[1].doc == "d25");
  CHECK(j.value.items[2].doc == "d123");
  CHECK(j.value.items[2].line == 4);
  CHECK(j.value.find("d25")->grade == 2.0);
}

TEST_CASE("text outside the pairs of set notation is an error, not silently dropped") {
  const auto j = parse_judgments("R = { [d1, 3], d5 3 }");
  REQUIRE(j.errors.items().size() == 1);
  CHECK(j.errors.items()[0].column == 16);  // the 'd' of d5
  CHECK(j.errors.items()[0].message.find("'d5 3'") != std::string::npos);
  SUBCASE("letters too") {
    const auto words = parse_judgments("R = { [d1, 3] and [d2, 1] }");
    REQUIRE(words.errors.items().size() == 1);
    CHECK(words.errors.items()[0].column == 15);
  }
  SUBCASE("the LaTeX form with its braces and dollars is accepted") {
    const auto latex = parse_judgments("$R = \\{ [d_3, 3],\n [d_{25}, 2] \\}$.");
    CHECK(latex.errors.empty());
    CHECK(latex.value.items.size() == 2);
  }
}

TEST_CASE("the same judgment twice is a warning, a conflicting one an error naming both lines") {
  const auto same = parse_judgments("d1 2\nd1 2\n");
  CHECK(same.errors.empty());
  CHECK(same.warnings.items().size() == 1);
  const auto conflict = parse_judgments("d1 2\nd1 1\n");
  REQUIRE(conflict.errors.items().size() == 1);
  CHECK(conflict.errors.items()[0].message.find("2 on line 1 and 1 here") != std::string::npos);
}

TEST_CASE("a table row of rank and document has no grade") {
  const auto r = parse_ranking("| 1 | d_5 |\n| 2 | d6 (r: 2) |\n3 d7\n");
  CHECK(r.errors.empty());
  REQUIRE(r.value.entries.size() == 3);
  CHECK(r.value.entries[0].doc == "d5");
  CHECK_FALSE(r.value.entries[0].grade.has_value());
  CHECK(r.value.entries[1].doc == "d6");
  CHECK(r.value.entries[1].grade == 2.0);
  SUBCASE("but a number that is not the row's rank is a document id") {
    const auto numeric = parse_ranking("588 x\n");
    CHECK_FALSE(numeric.errors.empty());
  }
}

TEST_CASE("JSON: rankings and judgments in the shapes tools print them") {
  SUBCASE("an array of ids, of [doc, number] pairs, of objects whose keys name the numbers") {
    const auto ids = parse_ranking(R"(["d3", "d1", "d2"])");
    REQUIRE(ids.errors.empty());
    REQUIRE(ids.value.entries.size() == 3);
    CHECK(*ids.value.entries[1].doc == "d1");
    CHECK_FALSE(ids.value.entries[1].grade.has_value());
    const auto pairs = parse_ranking(R"([["d3", 0], ["d1", 3]])");
    REQUIRE(pairs.errors.empty());
    CHECK(pairs.value.entries[1].grade == 3);
    CHECK(pairs.value.numbers_from == NumbersFrom::assumed);
    const auto objects = parse_ranking(
        "[{\"doc\": \"d3\", \"score\": 0.9},\n {\"id\": \"d1\", \"score\": 0.5, \"rel\": 2}]");
    REQUIRE(objects.errors.empty());
    CHECK(objects.value.scored);
    CHECK(objects.value.numbers_from == NumbersFrom::json);
    CHECK(objects.value.entries[1].line == 2);
    CHECK(objects.value.entries[1].grade == 2);
  }
  SUBCASE("an object is documents in the order written; a run dict holds scores of one query") {
    const auto object = parse_ranking(R"({"d3": 1, "d1": 3})");
    REQUIRE(object.errors.empty());
    CHECK(*object.value.entries[0].doc == "d3");
    CHECK(object.value.entries[0].grade == 1);
    const auto run = parse_ranking(R"({"q7": {"d3": 0.9, "d1": 0.5}})");
    REQUIRE(run.errors.empty());
    CHECK(run.value.scored);
    CHECK(run.value.numbers_from == NumbersFrom::run);
    const auto two = parse_ranking(R"({"q7": {"d3": 0.9}, "q8": {"d1": 0.5}})");
    REQUIRE_FALSE(two.errors.empty());
    CHECK(two.errors.items()[0].message.find("2 queries") != std::string::npos);
  }
  SUBCASE("judgments: an object, a qrels dict, pairs or objects") {
    for (const char* text :
         {R"({"d1": 3, "d2": 0})", R"({"q": {"d1": 3, "d2": 0}})", R"([["d1", 3], ["d2", 0]])",
          R"([{"docid": "d1", "relevance": 3}, {"doc": "d2", "grade": 0}])"}) {
      const auto j = parse_judgments(text);
      INFO(text);
      REQUIRE(j.errors.empty());
      REQUIRE(j.value.items.size() == 2);
      CHECK(j.value.find("d1")->grade == 3);
    }
  }
  SUBCASE("errors are located, and set notation and grade vectors are not taken for JSON") {
    const auto broken = parse_ranking("[\"d1\",\n \"d2\" \"d3\"]");
    REQUIRE_FALSE(broken.errors.empty());
    CHECK(broken.errors.items()[0].line == 2);
    CHECK(broken.errors.items()[0].column == 7);
    const auto no_doc = parse_judgments(R"([{"grade": 3}])");
    REQUIRE_FALSE(no_doc.errors.empty());
    CHECK(no_doc.errors.items()[0].column == 2);
    CHECK(parse_ranking("[3, 2, 3]").value.grades_only);
    CHECK(parse_judgments("{ [d1, 3], [d2, 1] }").value.items.size() == 2);
    std::string deep;
    for (int i = 0; i < 100; ++i) deep += "{\"a\": ";
    const auto nested = parse_ranking(deep);
    REQUIRE_FALSE(nested.errors.empty());
    CHECK(nested.errors.items()[0].message.find("deeper than 64") != std::string::npos);
  }
}
