#pragma once
// A UTC instant written "2026-04-04T14:00:00Z", for the tests of New Zealand time and its buckets.
#include "common/nz_time.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace testing_support {

inline storefront::nz::Instant utc(const std::string& text) {
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    EXPECT_EQ(std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%dZ", &y, &mo, &d, &h, &mi, &s), 6) << text;
    return date::sys_days{date::year{y} / mo / d} + std::chrono::hours(h) + std::chrono::minutes(mi) + std::chrono::seconds(s);
}

} // namespace testing_support
