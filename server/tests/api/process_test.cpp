// The real executable: starts on a fresh SQLite database, answers, and exits 0 on SIGTERM after
// finishing the request in flight.
#include "api/harness.h"

#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/Net/ServerSocket.h>
#include <gtest/gtest.h>

#include <csignal>
#include <future>
#include <thread>

using namespace testing_support;

namespace {
int freePort() {
    Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
    return s.address().port();
}
} // namespace

TEST(Process, StartsMigratesServesAndStopsCleanlyOnSigterm) {
    const int port = freePort();
    const std::string dir = ::testing::TempDir() + "/process-" + storefront::db::newId();
    Poco::Process::Env environment = {
        {"STOREFRONT_ENV", "development"},
        {"STOREFRONT_PORT", std::to_string(port)},
        {"STOREFRONT_DATA_DIR", dir},
        {"STOREFRONT_WEB_DIR", dir + "/no-web"},
        {"STOREFRONT_LOG_LEVEL", "information"},
    };
    Poco::Pipe outPipe;
    auto handle = Poco::Process::launch(STOREFRONT_BINARY, {}, dir.empty() ? "" : ::testing::TempDir(), nullptr,
                                        &outPipe, &outPipe, environment);
    Poco::PipeInputStream output(outPipe);
    auto logs = std::async(std::launch::async, [&output] {
        std::string all, line;
        while (std::getline(output, line)) all += line + "\n";
        return all;
    });
    bool up = eventually([&] {
        try {
            return http(port, "GET", "/healthz").status == 200;
        } catch (const std::exception&) {
            return false;
        }
    }, 20);
    ASSERT_TRUE(up);
    EXPECT_EQ(http(port, "GET", "/api/v1/products").status, 200);
    ::kill(handle.id(), SIGTERM);
    EXPECT_EQ(handle.wait(), 0);
    auto text = logs.get();
    EXPECT_NE(text.find("GET /healthz 200"), std::string::npos) << text;
    EXPECT_NE(text.find("stopped"), std::string::npos) << text;
}

TEST(Process, BadConfigurationFailsFastWithAClearMessage) {
    Poco::Pipe outPipe;
    Poco::Process::Env environment = {{"STOREFRONT_PORT", "eighty"}};
    auto handle = Poco::Process::launch(STOREFRONT_BINARY, {}, ::testing::TempDir(), nullptr, &outPipe, &outPipe, environment);
    Poco::PipeInputStream output(outPipe);
    std::string all((std::istreambuf_iterator<char>(output)), std::istreambuf_iterator<char>());
    EXPECT_NE(handle.wait(), 0);
    EXPECT_NE(all.find("STOREFRONT_PORT"), std::string::npos) << all;
}
