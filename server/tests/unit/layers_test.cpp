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

TEST(Layers, BillingSlicesIncludeDownwards) {
    // billing/orders (what was bought and its state) includes neither of the other slices;
    // billing/books (ledger, refunds, invoices and notes, GST) and billing/provider (the payment
    // providers and their event readers) may include orders/ but not each other; billing/subscriptions
    // (the subscription lifecycle: its events, dunning, cancellations, plan changes) may include the
    // three below it, and none of them includes it; the billing root
    // (the module, routes and wiring) may include all three. Nothing outside billing/ reaches
    // into a slice's neighbours through the root either way: it names the slice it uses.
    const auto sliceOf = [](const std::string& path) -> std::string {
        if (path.rfind("billing/", 0) != 0) return "";
        const auto rest = path.substr(8);
        const auto slash = rest.find('/');
        return slash == std::string::npos ? "root" : rest.substr(0, slash);
    };
    const std::map<std::string, std::set<std::string>> allowed = {
        {"orders", {"orders"}},
        {"books", {"books", "orders"}},
        {"provider", {"provider", "orders"}},
        {"subscriptions", {"subscriptions", "orders", "books", "provider"}},
        {"root", {"root", "orders", "books", "provider", "subscriptions"}},
    };
    std::size_t sliced = 0;
    for (const auto& [file, headers] : sourceIncludes()) {
        const auto from = sliceOf(file);
        if (from.empty()) continue;
        sliced += from != "root";
        for (const auto& h : headers) {
            const auto to = sliceOf(h);
            if (to.empty()) continue;
            EXPECT_TRUE(allowed.at(from).contains(to)) << file << " (billing " << from << ") includes " << h;
        }
    }
    EXPECT_GT(sliced, 20u); // the slices exist
}

