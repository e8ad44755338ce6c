#include "ndcg/options.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace ndcg;

TEST_CASE("options are set from their text values") {
  Options o;
  CHECK_FALSE(set_option(o, "gain", "exponential"));
  CHECK(o.gain == GainKind::exponential);
  CHECK_FALSE(set_option(o, "discount", "jarvelin-kekalainen"));
  CHECK_FALSE(set_option(o, "base", "3"));
  CHECK(o.base == 3.0);
  CHECK_FALSE(set_option(o, "ideal", "ranking"));
  CHECK_FALSE(set_option(o, "idealDepth", "whole"));
  CHECK_FALSE(set_option(o, "k", "10"));
  CHECK(o.k == 10);
  CHECK_FALSE(set_option(o, "ndcgWhenIdcgZero", "1"));
  CHECK_FALSE(set_option(o, "roundBeforeDividing", "1"));
  CHECK(o.round_before_dividing == 1);
  CHECK_FALSE(set_option(o, "roundBeforeDividing", "off"));
  CHECK_FALSE(o.round_before_dividing.has_value());
}

TEST_CASE("an invalid value leaves the options unchanged and says what is accepted") {
  Options o;
  const auto error = set_option(o, "k", "-1");
  REQUIRE(error);
  CHECK(error->source == Source::options);
  CHECK(error->message.find("whole number") != std::string::npos);
  CHECK(o.k == 0);
}

TEST_CASE("a custom gain map") {
  Options o;
  CHECK_FALSE(set_option(o, "gain", "3=7, 2:3; 1=1"));
  CHECK(o.gain == GainKind::custom);
  CHECK(gain_of(3, o) == 7.0);
  CHECK(gain_of(2, o) == 3.0);
  CHECK(gain_of(0, o) == 0.0);  // 0 needs no entry
  CHECK_FALSE(gain_of(4, o).has_value());
  CHECK(set_option(o, "gain", "3=7,3=8"));
  CHECK(set_option(o, "gain", "3"));
  CHECK(set_option(o, "gain", "exp"));
}

TEST_CASE("gains") {
  Options o;
  CHECK(gain_of(2.5, o) == 2.5);
  o.gain = GainKind::exponential;
  CHECK(gain_of(3, o) == 7.0);
  CHECK(gain_of(0.5, o) == doctest::Approx(std::sqrt(2.0) - 1));
  CHECK(gain_of(1023, o).has_value());
  CHECK_FALSE(gain_of(1024, o).has_value());
}

TEST_CASE("discounts") {
  Options o;
  // log2(rank + 1): 1, 1.585, 2, ...
  CHECK(discount_at(1, o) == 1.0);
  CHECK(discount_at(3, o) == 2.0);
  o.discount = DiscountKind::jarvelin_kekalainen;
  // base 2: no discount at rank 1, then log2(rank)
  CHECK(discount_at(1, o) == 1.0);
  CHECK(discount_at(2, o) == 1.0);
  CHECK(discount_at(8, o) == 3.0);
  o.base = 10;
  // base 10: ranks 1..9 undiscounted, log10(100) = 2
  CHECK(discount_at(9, o) == 1.0);
  CHECK(discount_at(100, o) == doctest::Approx(2.0));
}

TEST_CASE("rounding is half away from zero, as by hand") {
  CHECK(round_to(2.75, 1) == doctest::Approx(2.8));
  CHECK(round_to(1.6309, 1) == doctest::Approx(1.6));
  CHECK(round_to(-0.25, 1) == doctest::Approx(-0.3));
  CHECK(round_to(11.8339, 0) == 12.0);
}
