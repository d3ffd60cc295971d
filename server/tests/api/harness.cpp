#include "api/harness.h"

#include "app/config.h"
#include "db/migrations.h"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/SocketStream.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Net/TCPServer.h>
#include <Poco/Net/TCPServerConnection.h>
#include <Poco/Net/TCPServerConnectionFactory.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/String.h>
#include <Poco/ThreadPool.h>
#include <Poco/Util/MapConfiguration.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>

namespace testing_support {

namespace fs = std::filesystem;

// Every open database (Poco::Data::SessionPool) holds one thread of POCO's default thread pool for
// its idle-session timer, and that pool has 16: more than 16 databases open at once (the servers a
// test binary starts, plus the handles tests open directly) fail with "No thread available".
const bool kDefaultThreadPoolWidened = [] {
    Poco::ThreadPool::defaultPool().addCapacity(240);
    return true;
}();

HttpResult http(int port, const std::string& method, const std::string& path, const std::string& body, const Headers& headers) {
    Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
    session.setTimeout(Poco::Timespan(30, 0));
    Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    for (const auto& [k, v] : headers) request.set(k, v);
    if (!body.empty() || method == "POST" || method == "PUT") request.setContentLength64(static_cast<Poco::Int64>(body.size()));
    auto& out = session.sendRequest(request);
    out << body;
    Poco::Net::HTTPResponse response;
    auto& in = session.receiveResponse(response);
    HttpResult result;
    result.status = response.getStatus();
    for (const auto& [k, v] : response) result.headers[Poco::toLower(k)] = v;
    std::ostringstream text;
    text << in.rdbuf();
    result.body = text.str();
    return result;
}

HttpResult parseRawAnswer(const std::string& text) {
    HttpResult result;
    const auto headEnd = text.find("\r\n\r\n");
    if (!text.starts_with("HTTP/1.") || text.size() < 12 || headEnd == std::string::npos) {
        result.body = text;
        return result;
    }
    result.status = std::atoi(text.substr(9, 3).c_str());
    std::size_t line = text.find("\r\n") + 2;
    while (line < headEnd) {
        const auto end = text.find("\r\n", line);
        const auto colon = text.find(':', line);
        if (colon != std::string::npos && colon < end) {
            auto value = text.substr(colon + 1, end - colon - 1);
            while (!value.empty() && value.front() == ' ') value.erase(0, 1);
            result.headers[Poco::toLower(text.substr(line, colon - line))] = value;
        }
        line = end + 2;
    }
    result.body = text.substr(headEnd + 4);
    return result;
}

HttpResult rawHttp(int port, const std::string& bytes, bool halfClose, int seconds) {
    Poco::Net::StreamSocket socket(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(port)));
    socket.setReceiveTimeout(Poco::Timespan(seconds, 0));
    std::string text;
    try {
        const char* data = bytes.data();
        int left = static_cast<int>(bytes.size());
        while (left > 0) {
            const int sent = socket.sendBytes(data, left);
            if (sent <= 0) break;
            data += sent;
            left -= sent;
        }
        if (halfClose) socket.shutdownSend();
        char buffer[4096];
        while (true) {
            const int n = socket.receiveBytes(buffer, sizeof buffer);
            if (n <= 0) break;
            text.append(buffer, static_cast<std::size_t>(n));
        }
    } catch (const Poco::Exception&) {
        // a timeout or a reset: judged by what arrived
    }
    return parseRawAnswer(text);
}

HttpResult get(const std::string& path, const Headers& headers) {
    return http(env().port, "GET", path, "", headers);
}

HttpResult getJson(const std::string& path, const Headers& headers) {
    auto h = headers;
    h["Accept"] = "application/json";
    return http(env().port, "GET", path, "", h);
}

HttpResult sendJson(int port, const std::string& method, const std::string& path, const nlohmann::json& body, const Headers& headers) {
    auto h = headers;
    h["Content-Type"] = "application/json";
    return http(port, method, path, body.dump(), h);
}

HttpResult postJson(const std::string& path, const nlohmann::json& body, const Headers& headers) {
    return sendJson(env().port, "POST", path, body, headers);
}

HttpResult putJson(const std::string& path, const nlohmann::json& body, const Headers& headers) {
    return sendJson(env().port, "PUT", path, body, headers);
}

HttpResult patchJson(const std::string& path, const nlohmann::json& body, const Headers& headers) {
    return sendJson(env().port, "PATCH", path, body, headers);
}

HttpResult del(const std::string& path, const Headers& headers, const nlohmann::json& body) {
    if (body.is_null()) return http(env().port, "DELETE", path, "", headers);
    return sendJson(env().port, "DELETE", path, body, headers);
}

// ---- fake SMTP relay ----

struct FakeSmtp::Impl {
    std::mutex mutex;
    std::vector<std::string> messages;
    std::atomic<bool> refusing{false};
    std::unique_ptr<Poco::Net::TCPServer> server;
};

namespace {

class SmtpConnection : public Poco::Net::TCPServerConnection {
public:
    SmtpConnection(const Poco::Net::StreamSocket& s, FakeSmtp::Impl& impl) : TCPServerConnection(s), impl_(impl) {}

    void run() override {
        auto& sock = socket();
        sock.setReceiveTimeout(Poco::Timespan(10, 0));
        auto say = [&](const std::string& line) { sock.sendBytes((line + "\r\n").data(), static_cast<int>(line.size() + 2)); };
        if (impl_.refusing) {
            say("421 fake relay is refusing service");
            return;
        }
        say("220 fake.smtp ESMTP");
        std::string buffer;
        bool inData = false;
        std::string data;
        char chunk[4096];
        while (true) {
            auto eol = buffer.find("\r\n");
            if (eol == std::string::npos) {
                int n = sock.receiveBytes(chunk, sizeof chunk);
                if (n <= 0) return;
                buffer.append(chunk, static_cast<std::size_t>(n));
                continue;
            }
            std::string line = buffer.substr(0, eol);
            buffer.erase(0, eol + 2);
            if (inData) {
                if (line == ".") {
                    inData = false;
                    std::lock_guard lock(impl_.mutex);
                    impl_.messages.push_back(data);
                    data.clear();
                    say("250 queued");
                } else {
                    data += line + "\n";
                }
                continue;
            }
            auto verb = Poco::toUpper(line.substr(0, 4));
            if (verb == "EHLO" || verb == "HELO") say("250 fake.smtp");
            else if (verb == "MAIL" || verb == "RCPT" || verb == "RSET" || verb == "NOOP") say("250 ok");
            else if (verb == "DATA") {
                inData = true;
                say("354 go ahead");
            } else if (verb == "QUIT") {
                say("221 bye");
                return;
            } else say("502 not implemented");
        }
    }

private:
    FakeSmtp::Impl& impl_;
};

class SmtpFactory : public Poco::Net::TCPServerConnectionFactory {
public:
    explicit SmtpFactory(FakeSmtp::Impl& impl) : impl_(impl) {}
    Poco::Net::TCPServerConnection* createConnection(const Poco::Net::StreamSocket& s) override {
        return new SmtpConnection(s, impl_);
    }

private:
    FakeSmtp::Impl& impl_;
};

void writeFile(const fs::path& p, const std::string& content) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
}

// A tiny web build: index.html with the shell markers, a hashed asset with compressed siblings.
// The folders the harness makes under the test temp dir (web files, each server's data dir):
// removed at exit, after the servers stop, so runs do not pile up folders and databases in /tmp.
std::mutex madeDirsMutex;
std::vector<fs::path> madeDirs;

fs::path madeDir(const std::string& prefix) {
    auto dir = fs::path(::testing::TempDir()) / (prefix + storefront::db::newId());
    std::lock_guard lock(madeDirsMutex);
    madeDirs.push_back(dir);
    return dir;
}

void removeMadeDirs() {
    std::lock_guard lock(madeDirsMutex);
    for (const auto& dir : madeDirs) {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
    madeDirs.clear();
}

std::string makeWebDir() {
    auto dir = madeDir("web-");
    writeFile(dir / "index.html",
              "<!doctype html>\n<html lang=\"en-NZ\"><head><meta charset=\"utf-8\">\n<!--app-head-->\n"
              "<script type=\"module\" src=\"/assets/app-3f2a1b.js\"></script></head>\n"
              "<body><div id=\"root\"></div>\n<!--app-data-->\n</body></html>\n");
    // A page the build writes whole (web/scripts/prerender.mjs): /terms has one, /privacy not here.
    writeFile(dir / "pages/terms.html",
              "<!doctype html>\n<html lang=\"en-NZ\"><head><meta charset=\"utf-8\">\n<!--app-head-->\n</head>\n"
              "<body><div id=\"root\"><div data-static-page=\"/terms\"><h1>Terms and Conditions</h1></div></div>\n"
              "<!--app-data-->\n</body></html>\n");
    writeFile(dir / "assets/app-3f2a1b.js", "console.log('identity');\n");
    writeFile(dir / "assets/app-3f2a1b.js.gz", "GZIP-BYTES");
    writeFile(dir / "assets/app-3f2a1b.js.br", "BROTLI-BYTES");
    writeFile(dir / "products/hit/hit-interface.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    return dir.string();
}

std::mutex lastStartMutex;
std::chrono::steady_clock::time_point lastStart;

// The settings every test server shares; `overrides` change some of them.
std::map<std::string, std::string> serverSettings(const Env& e, const std::map<std::string, std::string>& overrides) {
    std::map<std::string, std::string> vars = {
        // The local test payment provider is development only (a test may override to production).
        {"STOREFRONT_ENV", "development"},
        {"STOREFRONT_PORT", "0"},
        {"STOREFRONT_PUBLIC_URL", "https://shop.signalcraft.test"},
        {"STOREFRONT_DATA_DIR", madeDir("data-").string()},
        {"STOREFRONT_WEB_DIR", e.webDir},
        {"STOREFRONT_TRUSTED_PROXIES", "127.0.0.1"},
        {"STOREFRONT_CONTACT_LIMIT", "3"},
        {"STOREFRONT_CONTACT_WINDOW_SECONDS", "3600"},
        {"STOREFRONT_MAIL_TRANSPORT", "smtp"},
        {"SMTP_HOST", "127.0.0.1"},
        {"SMTP_PORT", std::to_string(e.smtp->port())},
        {"SMTP_SECURITY", "none"},
        {"STOREFRONT_MAIL_RETRY_SECONDS", "1"},
        {"STOREFRONT_LOG_LEVEL", "warning"},
        {"STOREFRONT_MAX_BODY_BYTES", "65536"},
        // Tests change rows directly and expect to see them at once.
        {"STOREFRONT_CATALOG_CACHE_MS", "0"},
        // The smallest argon2id cost libsodium accepts: the rules are the same, the hashing fast.
        {"STOREFRONT_AUTH_ARGON2_OPS", "1"},
        {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "8192"},
        // Throttles count in fixed windows aligned to the clock: day-long windows keep a test's
        // attempts from straddling a window boundary (which would reset the count mid-test).
        {"STOREFRONT_AUTH_SIGNIN_WINDOW_SECONDS", "86400"},
        {"STOREFRONT_AUTH_EMAIL_WINDOW_SECONDS", "86400"},
        // Every server on the shared database seals TOTP secrets with the same key (as a
        // deployment with more than one server must).
        {"STOREFRONT_TOTP_KEY", kTotpKey},
    };
    if (e.server) vars["STOREFRONT_DATABASE"] = e.server->config().database;
    else if (const char* pg = std::getenv("STOREFRONT_TEST_DATABASE"); pg && *pg) vars["STOREFRONT_DATABASE"] = pg;
    else vars["STOREFRONT_DATABASE"] = vars["STOREFRONT_DATA_DIR"] + "/api-test.db";
    for (const auto& [k, v] : overrides) vars[k] = v;
    return vars;
}

} // namespace

storefront::ShiftedClock& testClock() {
    static storefront::ShiftedClock clock;
    return clock;
}

std::unique_ptr<storefront::app::Storefront> startServer(const std::map<std::string, std::string>& vars) {
    Poco::AutoPtr<Poco::Util::MapConfiguration> props = new Poco::Util::MapConfiguration;
    auto config = storefront::app::loadConfig(*props, [&](const std::string& k) -> std::optional<std::string> {
        auto it = vars.find(k);
        if (it == vars.end()) return std::nullopt;
        return it->second;
    }, "");
    auto server = std::make_unique<storefront::app::Storefront>(config, testClock());
    server->start();
    std::lock_guard lock(lastStartMutex);
    lastStart = std::chrono::steady_clock::now();
    return server;
}

namespace {

Env* startEnv() {
    auto* e = new Env;
    e->smtp = std::make_unique<FakeSmtp>();
    e->webDir = makeWebDir();
    e->server = startServer(serverSettings(*e, {}));
    e->port = e->server->port();
    e->db = storefront::db::Database::open(e->server->config().database, {}, testClock());
    return e;
}

std::mutex extraServersMutex;
std::map<std::map<std::string, std::string>, std::unique_ptr<storefront::app::Storefront>> extraServers;

} // namespace

FakeSmtp::FakeSmtp() : impl_(std::make_unique<Impl>()) {
    Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
    impl_->server = std::make_unique<Poco::Net::TCPServer>(new SmtpFactory(*impl_), socket);
    impl_->server->start();
}

FakeSmtp::~FakeSmtp() { impl_->server->stop(); }

int FakeSmtp::port() const { return impl_->server->port(); }

void FakeSmtp::setRefusing(bool refusing) { impl_->refusing = refusing; }

std::vector<std::string> FakeSmtp::messages() {
    std::lock_guard lock(impl_->mutex);
    return impl_->messages;
}

namespace {

std::atomic<Env*> startedEnv{nullptr};

// Every server the tests started stops, once: when the tests end (the environment below), else at
// exit. Before exit is what matters: a server's job threads (the mail outbox's delivery, for one)
// must not run on while exit destroys the function-local statics they read.
void stopServers() {
    static std::once_flag once;
    std::call_once(once, [] {
        {
            std::lock_guard lock(extraServersMutex);
            for (auto& [overrides, server] : extraServers) server->stop();
            extraServers.clear();
        }
        if (auto* x = startedEnv.load()) {
            x->server->stop();
            x->db.reset();
        }
        removeMadeDirs();
    });
}

class StopServersWhenTheTestsEnd : public ::testing::Environment {
public:
    void TearDown() override { stopServers(); }
};

[[maybe_unused]] ::testing::Environment* const kStopServers = ::testing::AddGlobalTestEnvironment(new StopServersWhenTheTestsEnd);

} // namespace

Env& env() {
    static Env* instance = [] {
        auto* e = startEnv();
        startedEnv = e;
        std::atexit(stopServers);
        return e;
    }();
    return *instance;
}

int serverWith(const std::map<std::string, std::string>& overrides) {
    auto& e = env();
    std::lock_guard lock(extraServersMutex);
    if (auto it = extraServers.find(overrides); it != extraServers.end()) return it->second->port();
    // Only a server that started is kept (a test may expect start-up to fail).
    auto server = startServer(serverSettings(e, overrides));
    const int port = server->port();
    extraServers.emplace(overrides, std::move(server));
    return port;
}

int peerServer() { return serverWith({}); }

void settleServers() {
    (void)env();
    std::chrono::steady_clock::time_point settled;
    {
        std::lock_guard lock(lastStartMutex);
        settled = lastStart + std::chrono::seconds(5);
    }
    std::this_thread::sleep_until(settled);
}

std::string unique(const std::string& prefix) { return prefix + "-" + storefront::db::newId().substr(0, 8); }

bool eventually(const std::function<bool()>& condition, double seconds) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(seconds * 1000));
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return condition();
}

CommandRun runStorefront(const std::vector<std::string>& args, const std::map<std::string, std::string>& environment,
                         const std::string& input) {
    Poco::Process::Env processEnv(environment.begin(), environment.end());
    processEnv.emplace("STOREFRONT_ENV", "development"); // unless the caller says otherwise
    Poco::Pipe in, out, err;
    auto handle = Poco::Process::launch(STOREFRONT_BINARY, args, ::testing::TempDir(), &in, &out, &err, processEnv);
    {
        Poco::PipeOutputStream stdinStream(in);
        stdinStream << input;
        stdinStream.close();
    }
    auto readAll = [](Poco::Pipe& pipe) {
        Poco::PipeInputStream stream(pipe);
        return std::string((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    };
    auto errText = std::async(std::launch::async, [&] { return readAll(err); });
    CommandRun run;
    run.out = readAll(out);
    run.err = errText.get();
    run.exitCode = handle.wait();
    return run;
}

} // namespace testing_support
