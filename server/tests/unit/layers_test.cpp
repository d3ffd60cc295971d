// The include rules of docs/architecture.md ("Layers"), read from the sources: storage never
// reaches into transport, and no include runs from a lower layer up to a higher one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// Every source file (relative path, e.g. "db/list.h") and the project headers it includes.
std::map<std::string, std::vector<std::string>> sourceIncludes() {
    static const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
    std::map<std::string, std::vector<std::string>> out;
    const fs::path root = fs::path(STOREFRONT_SOURCE_DIR) / "src";
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file()) continue;
        const auto ext = entry.path().extension();
        if (ext != ".h" && ext != ".cpp") continue;
        auto& list = out[fs::relative(entry.path(), root).generic_string()];
        std::ifstream in(entry.path());
        std::smatch m;
        for (std::string line; std::getline(in, line);)
            if (std::regex_search(line, m, include)) list.push_back(m[1]);
    }
    return out;
}

std::string layerOf(const std::string& path) { return path.substr(0, path.find('/')); }

bool isStorageFile(const std::string& path) {
    const auto name = path.substr(path.rfind('/') + 1);
    return name.find("_repository.") != std::string::npos || name.find("_queries.") != std::string::npos ||
           name.find("_sql.") != std::string::npos || name.find("_search.") != std::string::npos;
}

} // namespace

TEST(Layers, StorageNeverIncludesTransport) {
    const auto all = sourceIncludes();
    ASSERT_GT(all.size(), 100u) << STOREFRONT_SOURCE_DIR;
    std::size_t repositories = 0;
    for (const auto& [file, headers] : all) {
        const bool storage = layerOf(file) == "db" || isStorageFile(file);
        if (!storage) continue;
        repositories += isStorageFile(file);
        for (const auto& h : headers) EXPECT_NE(layerOf(h), "http") << file << " includes " << h;
    }
    EXPECT_GT(repositories, 10u);
}

TEST(Layers, IncludesRunDownwards) {
    // A folder may include its own files and those of the layers below it.
    const std::map<std::string, std::set<std::string>> below = {
        {"common", {}},
        {"db", {"common"}},
        {"http", {"common", "db"}}, // db/list.h: a page and a sort allowlist are plain data
    };
    for (const auto& [file, headers] : sourceIncludes()) {
        const auto folder = layerOf(file);
        auto rule = below.find(folder);
        if (rule == below.end()) {
            // An area never includes app/ (the wiring above everything).
            if (folder != "app") {
                for (const auto& h : headers) EXPECT_NE(layerOf(h), "app") << file << " includes " << h;
            }
            continue;
        }
        for (const auto& h : headers) {
            const auto target = layerOf(h);
            if (target == folder || h.find('/') == std::string::npos) continue;
            EXPECT_TRUE(rule->second.contains(target)) << file << " (" << folder << ") includes " << h;
        }
    }
}

TEST(Layers, AreasIncludeOnlyAreasBelowThem) {
    // The areas in one stack (docs/architecture.md, "Layers"): an area includes only areas of a
    // lower rank; areas of one rank never include each other, so there is no circle.
    const std::map<std::string, int> rank = {
        {"common", 0},  {"db", 1},      {"http", 2},      {"audit", 3},       {"mail", 4},
        {"auth", 5},    {"catalog", 5}, {"contact", 5},   {"companion", 5},   {"seo", 6},
        {"enterprise", 6}, {"billing", 7}, {"backoffice", 8}, {"privacy", 8}, {"app", 9},
    };
    for (const auto& [file, headers] : sourceIncludes()) {
        if (file.find('/') == std::string::npos) continue; // main.cpp
        const auto from = layerOf(file);
        ASSERT_TRUE(rank.contains(from)) << "a new area, " << from << ": give it its place in the stack";
        for (const auto& h : headers) {
            if (h.find('/') == std::string::npos) continue;
            const auto to = layerOf(h);
            if (to == from || !rank.contains(to)) continue;
            EXPECT_LT(rank.at(to), rank.at(from)) << file << " (" << from << ") includes " << h << " (" << to << ")";
        }
    }
}

TEST(Layers, BillingSlicesAreOneStack) {
    // billing/ is one stack, each slice including only those below it: orders (what was bought and
    // its state, the claims) <- provider (the payment providers, their types and event readers)
    // <- books (ledger, refunds, invoices and notes, GST) <- subscriptions (the subscription
    // lifecycle) <- the billing root (the use cases, routes, module).
    const auto sliceOf = [](const std::string& path) -> std::string {
        if (path.rfind("billing/", 0) != 0) return "";
        const auto rest = path.substr(8);
        const auto slash = rest.find('/');
        return slash == std::string::npos ? "root" : rest.substr(0, slash);
    };
    const std::map<std::string, int> rank = {{"orders", 0}, {"provider", 1}, {"books", 2}, {"subscriptions", 3}, {"root", 4}};
    std::size_t sliced = 0;
    for (const auto& [file, headers] : sourceIncludes()) {
        const auto from = sliceOf(file);
        if (from.empty()) continue;
        ASSERT_TRUE(rank.contains(from)) << "a new billing slice, " << from << ": give it its place in the stack";
        sliced += from != "root";
        for (const auto& h : headers) {
            const auto to = sliceOf(h);
            if (to.empty()) continue;
            EXPECT_LE(rank.at(to), rank.at(from)) << file << " (billing " << from << ") includes " << h;
        }
    }
    EXPECT_GT(sliced, 20u); // the slices exist
}

TEST(Layers, OutsideBillingOnlyItsPublicHeadersAreIncluded) {
    // Other areas use billing through its root (module, checkout service) and these few slice
    // headers, each for a reason; anything else of a slice is billing's own.
    const std::map<std::string, std::string> published = {
        {"billing/orders/shippable.h", "the one SQL of 'can ship', shared with the back office's to-do count"},
        {"billing/orders/shipping.h", "parseCountryList for STOREFRONT_SHIPPING_COUNTRIES (app/config)"},
        {"billing/books/tax_invoice.h", "normalizeGstNumber and parseCurrencyList for the settings (app/config)"},
        {"billing/provider/payment_provider.h", "closing an account cancels subscriptions at the provider (privacy)"},
    };
    for (const auto& [file, headers] : sourceIncludes()) {
        if (layerOf(file) == "billing") continue;
        for (const auto& h : headers) {
            if (h.rfind("billing/", 0) != 0 || h.find('/', 8) == std::string::npos) continue; // the root's own
            EXPECT_TRUE(published.contains(h)) << file << " reaches into a billing slice: " << h;
        }
    }
}

