#include "common/buffered_log_channel.h"

#include <Poco/AutoPtr.h>
#include <Poco/Message.h>
#include <Poco/PatternFormatter.h>

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using storefront::common::BufferedLogChannel;

namespace {

// A pipe whose read end is non-blocking, so the test can look at what has been written so far.
struct BufferedLogPipe {
    int fds[2] = {-1, -1};
    std::string seen;
    BufferedLogPipe() {
        EXPECT_EQ(::pipe(fds), 0);
        ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
        // Room for everything the tests write, so the writer never blocks on a full pipe.
        ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
    }
    ~BufferedLogPipe() {
        ::close(fds[0]);
        ::close(fds[1]);
    }
    const std::string& read() {
        char buffer[65536];
        for (;;) {
            const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
            if (n <= 0) break;
            seen.append(buffer, static_cast<std::size_t>(n));
        }
        return seen;
    }
};

Poco::Message bufferedLogMessage(const std::string& text, Poco::Message::Priority priority = Poco::Message::PRIO_INFORMATION) {
    return Poco::Message("test", text, priority);
}

Poco::AutoPtr<Poco::Formatter> bufferedLogFormatter() { return new Poco::PatternFormatter("%p %s: %t"); }

bool eventuallyInBufferedLog(BufferedLogPipe& pipe, const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        if (pipe.read().find(text) != std::string::npos) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
}

} // namespace

TEST(BufferedLogChannel, KeepsInformationLinesUntilTheIntervalThenWritesThemFormattedInOrder) {
    BufferedLogPipe pipe;
    // A long interval: the lines must wait in memory, not be written one by one.
    Poco::AutoPtr<BufferedLogChannel> channel(new BufferedLogChannel(bufferedLogFormatter(), pipe.fds[1], {std::chrono::hours(1), 1 << 20, 4 << 20}));
    channel->log(bufferedLogMessage("GET / 200 0.1ms"));
    channel->log(bufferedLogMessage("GET /api/v1/products 200 0.2ms"));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(pipe.read(), "");
    channel->flush();
    EXPECT_EQ(pipe.read(), "Information test: GET / 200 0.1ms\nInformation test: GET /api/v1/products 200 0.2ms\n");
}

TEST(BufferedLogChannel, WritesBufferedLinesWithinTheIntervalWithoutAFlush) {
    BufferedLogPipe pipe;
    Poco::AutoPtr<BufferedLogChannel> channel(new BufferedLogChannel(bufferedLogFormatter(), pipe.fds[1], {std::chrono::milliseconds(20), 1 << 20, 4 << 20}));
    channel->log(bufferedLogMessage("first"));
    EXPECT_TRUE(eventuallyInBufferedLog(pipe, "Information test: first\n"));
}

TEST(BufferedLogChannel, AWarningWakesTheWriterAndAnErrorIsWrittenBeforeLogReturns) {
    BufferedLogPipe pipe;
    Poco::AutoPtr<BufferedLogChannel> channel(new BufferedLogChannel(bufferedLogFormatter(), pipe.fds[1], {std::chrono::hours(1), 1 << 20, 4 << 20}));
    channel->log(bufferedLogMessage("quiet"));
    channel->log(bufferedLogMessage("database busy", Poco::Message::PRIO_WARNING));
    EXPECT_TRUE(eventuallyInBufferedLog(pipe, "Information test: quiet\nWarning test: database busy\n"));
    channel->log(bufferedLogMessage("later"));
    channel->log(bufferedLogMessage("failed", Poco::Message::PRIO_ERROR));
    EXPECT_EQ(pipe.read(), "Information test: quiet\nWarning test: database busy\nInformation test: later\nError test: failed\n");
}

TEST(BufferedLogChannel, WritesWhenTheBufferFillsAndNeverHoldsMoreThanItsLimit) {
    BufferedLogPipe pipe;
    // Wake at 1 KiB, and write in the caller past 4 KiB: 200 lines of ~60 bytes cannot all wait.
    Poco::AutoPtr<BufferedLogChannel> channel(new BufferedLogChannel(bufferedLogFormatter(), pipe.fds[1], {std::chrono::hours(1), 1024, 4096}));
    for (int i = 0; i < 200; ++i) channel->log(bufferedLogMessage("line " + std::to_string(i) + " " + std::string(30, 'x')));
    EXPECT_TRUE(eventuallyInBufferedLog(pipe, "line 150 "));
    channel->close();
    std::istringstream lines(pipe.read());
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
        EXPECT_EQ(line, "Information test: line " + std::to_string(n) + " " + std::string(30, 'x'));
        ++n;
    }
    EXPECT_EQ(n, 200);
}

TEST(BufferedLogChannel, LinesFromManyThreadsArriveWholeAndNoneIsLost) {
    BufferedLogPipe pipe;
    Poco::AutoPtr<BufferedLogChannel> channel(new BufferedLogChannel(bufferedLogFormatter(), pipe.fds[1], {std::chrono::milliseconds(5), 2048, 8192}));
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 1000; ++i) channel->log(bufferedLogMessage("t" + std::to_string(t) + " n" + std::to_string(i)));
        });
    for (auto& th : threads) th.join();
    channel->close();
    std::istringstream lines(pipe.read());
    std::string line;
    std::set<std::string> seen;
    std::vector<int> next(4, 0);
    while (std::getline(lines, line)) {
        ASSERT_TRUE(line.starts_with("Information test: t")) << line;
        const auto rest = line.substr(std::string("Information test: t").size());
        const int t = std::stoi(rest);
        const int i = std::stoi(rest.substr(rest.find(" n") + 2));
        EXPECT_EQ(i, next[static_cast<std::size_t>(t)]) << "thread " << t << " out of order";
        next[static_cast<std::size_t>(t)] = i + 1;
        seen.insert(line);
    }
    EXPECT_EQ(seen.size(), 4000u);
}

TEST(BufferedLogChannel, AfterCloseEveryLineIsWrittenAtOnce) {
    BufferedLogPipe pipe;
    Poco::AutoPtr<BufferedLogChannel> channel(new BufferedLogChannel(bufferedLogFormatter(), pipe.fds[1], {std::chrono::hours(1), 1 << 20, 4 << 20}));
    channel->log(bufferedLogMessage("before close"));
    channel->close();
    EXPECT_EQ(pipe.read(), "Information test: before close\n");
    channel->log(bufferedLogMessage("shutting down"));
    EXPECT_EQ(pipe.read(), "Information test: before close\nInformation test: shutting down\n");
}

// The server's own formatter must write exactly what Poco's PatternFormatter wrote before it.
TEST(LogLineFormatter, WritesWhatThePatternFormatterWrites) {
    Poco::AutoPtr<Poco::PatternFormatter> pattern(new Poco::PatternFormatter("%Y-%m-%dT%H:%M:%S.%iZ %p %s: %t"));
    pattern->setProperty("times", "UTC");
    storefront::common::LogLineFormatter fast;
    const std::vector<Poco::Timestamp::TimeVal> times = {
        0, 999, 1000, 999999, 1000000, 1764072303601234, 1764072303999999, 1764072304000000, 1767225599999000,
        1767225600000000, 951782400123456 /* 2000-02-29 */};
    const std::vector<Poco::Message::Priority> priorities = {
        Poco::Message::PRIO_FATAL, Poco::Message::PRIO_CRITICAL, Poco::Message::PRIO_ERROR, Poco::Message::PRIO_WARNING,
        Poco::Message::PRIO_NOTICE, Poco::Message::PRIO_INFORMATION, Poco::Message::PRIO_DEBUG, Poco::Message::PRIO_TRACE};
    for (const auto t : times) {
        for (const auto p : priorities) {
            Poco::Message m("http", "GET /api/v1/products 200 0.1ms", p);
            m.setTime(Poco::Timestamp(t));
            std::string expected, actual;
            pattern->format(m, expected);
            fast.format(m, actual);
            EXPECT_EQ(actual, expected) << "time " << t;
        }
    }
}
