// storefront: the web storefront, customer account site and staff back office server.
//
//   storefront [--config=FILE]            serve (settings: docs/configuration.md); with STOREFRONT_ENV
//                                         production, the default, it refuses settings unfit for the
//                                         internet (app/production.h) and exits 78
//   storefront migrate [--config=FILE]    apply pending migrations and exit
//   storefront users create --email E [--admin] [--config=FILE]
//                                         create a confirmed user; the password is read from
//                                         standard input when it is piped, otherwise a one-time
//                                         link to set it is printed
//   storefront keys rotate|list [--config=FILE]
//                                         add a new access-token signing key (old ones verify
//                                         until their tokens expire) / show the keys
//   storefront jobs run inactivity [--dry-run] [--config=FILE]
//                                         run the WireWrite inactivity job once (docs/wirewrite.md)
//   storefront backup --to FILE [--config=FILE]
//                                         write one archive of the database (SQLite; PostgreSQL: the
//                                         pg_dump command to pair with it) and the key files, while
//                                         the server serves (docs/operations.md, "Backups")
//   storefront restore --from FILE [--config=FILE]
//                                         restore such an archive into an empty data folder
#include "app/backup.h"
#include "app/config.h"
#include "app/production.h"
#include "app/storefront.h"
#include "auth/module.h"
#include "auth/signing_keys.h"
#include "common/buffered_log_channel.h"
#include "common/malloc_tuning.h"
#include "companion/module.h"
#include "db/database.h"
#include "db/migrations.h"
#include "db/rate_limiter.h"
#include "http/api_error.h"
#include "mail/module.h"

#include <Poco/AutoPtr.h>
#include <Poco/Logger.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/PropertyFileConfiguration.h>
#include <Poco/Util/ServerApplication.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <iostream>
#include <iterator>

namespace {

using Poco::Util::Application;

class StorefrontApplication : public Poco::Util::ServerApplication {
protected:
    void defineOptions(Poco::Util::OptionSet& options) override {
        ServerApplication::defineOptions(options);
        options.addOption(Poco::Util::Option("config", "c", "read settings from a properties file")
                              .required(false).repeatable(false).argument("FILE")
                              .callback(Poco::Util::OptionCallback<StorefrontApplication>(this, &StorefrontApplication::setConfigFile)));
        options.addOption(Poco::Util::Option("help", "h", "show this help").required(false).repeatable(false)
                              .callback(Poco::Util::OptionCallback<StorefrontApplication>(this, &StorefrontApplication::showHelp)));
    }

    void setConfigFile(const std::string&, const std::string& value) { configFile_ = value; }

    void showHelp(const std::string&, const std::string&) {
        Poco::Util::HelpFormatter help(options());
        help.setCommand(commandName());
        help.setUsage("[migrate | users create ... | keys rotate|list | jobs run inactivity | backup --to FILE | "
                      "restore --from FILE] [--config=FILE]");
        help.setHeader("The Storefront server. Settings come from the environment and an optional properties file; "
                       "see docs/configuration.md.");
        help.format(std::cout);
        helpShown_ = true;
        stopOptionsProcessing();
    }

    int main(const std::vector<std::string>& args) override {
        if (helpShown_) return EXIT_OK;
        // Every way out of main writes what the log still buffers.
        struct FlushLog {
            ~FlushLog() {
                if (logChannel_) logChannel_->close();
            }
        } flushLog;
        storefront::app::Config config;
        try {
            Poco::AutoPtr<Poco::Util::AbstractConfiguration> props;
            if (!configFile_.empty()) props = new Poco::Util::PropertyFileConfiguration(configFile_);
            else props = new Poco::Util::MapConfiguration;
            config = storefront::app::loadConfig(*props, storefront::app::processEnv, defaultWebDir());
        } catch (const std::exception& e) {
            std::cerr << "storefront: configuration error: " << e.what() << "\n";
            return EXIT_CONFIG;
        }
        setupLogging(config.logFormat == "json" ? storefront::common::LogLineFormatter::Style::Json
                                                : storefront::common::LogLineFormatter::Style::Text);
        Poco::Logger::root().setLevel(config.logLevel);

        if (!args.empty() && args[0] == "migrate") {
            // The first step on a new host: the SQLite file's folder may not exist yet.
            if (!config.postgres()) {
                auto parent = std::filesystem::path(config.database).parent_path();
                if (!parent.empty()) std::filesystem::create_directories(parent);
            }
            auto db = storefront::db::Database::open(config.database);
            auto applied = storefront::db::migrate(*db);
            std::cout << "applied " << applied.size() << " migration(s)\n";
            return EXIT_OK;
        }
        if (!args.empty()) {
            std::cerr << "storefront: unknown command '" << args[0] << "' (try --help)\n";
            return EXIT_USAGE;
        }

        // Production fails closed, naming every unfit setting at once. The shell commands (migrate
        // above, users, keys, jobs) do not check: an operator migrates and creates the first admin
        // before payments and mail are set up.
        if (auto problems = storefront::app::productionProblems(config); !problems.empty()) {
            std::cerr << "storefront: configuration error: " << storefront::app::describeProductionProblems(problems) << "\n";
            return EXIT_CONFIG;
        }

        // Before the request threads exist: each thread that meets a busy arena may create another.
        if (config.mallocArenaMax > 0 && !storefront::common::limitMallocArenas(config.mallocArenaMax))
            Poco::Logger::get("storefront").warning("STOREFRONT_MALLOC_ARENA_MAX is not supported by this C library; ignored");
        storefront::app::Storefront server(config);
        try {
            server.start();
        } catch (const std::exception& e) {
            Poco::Logger::get("storefront").fatal("could not start: %s", std::string(e.what()));
            return EXIT_SOFTWARE;
        }
        waitForTerminationRequest(); // SIGINT / SIGTERM
        Poco::Logger::get("storefront").information("shutting down (drain timeout %d s)", config.drainSeconds);
        // The HTTP server cuts connections still busy after the drain timeout; should a request be
        // stuck past that (e.g. in the database), the process still ends, a little later.
        std::thread([seconds = config.drainSeconds + 5] {
            std::this_thread::sleep_for(std::chrono::seconds(seconds));
            Poco::Logger::get("storefront").fatal("shutdown took longer than the drain timeout + 5 s; exiting now");
            std::_Exit(EXIT_SOFTWARE);
        }).detach();
        server.stop();
        Poco::Logger::get("storefront").information("stopped");
        return EXIT_OK;
    }

private:
    // Every log line goes to standard error (journald keeps it under systemd; docs/operations.md),
    // through a buffer and a writer thread (common/buffered_log_channel.h): the access log line
    // must not cost a write(2) per request. Text ("%Y-%m-%dT%H:%M:%S.%iZ %p %s: %t" in UTC, as
    // PatternFormatter would write it) or one JSON object per line (STOREFRONT_LOG_FORMAT=json).
    static void setupLogging(storefront::common::LogLineFormatter::Style style) {
        Poco::AutoPtr<Poco::Formatter> formatter(new storefront::common::LogLineFormatter(style));
        logChannel_ = new storefront::common::BufferedLogChannel(formatter, STDERR_FILENO);
        Poco::Logger::root().setChannel(logChannel_);
    }

    static inline Poco::AutoPtr<storefront::common::BufferedLogChannel> logChannel_;

    // The web build next to a source checkout (build/server/storefront -> web/dist), else where
    // `cmake --install` puts it (PREFIX/bin/storefront -> PREFIX/share/storefront/web), else ./web/dist.
    std::string defaultWebDir() const {
        namespace fs = std::filesystem;
        std::error_code ec;
        auto exe = fs::canonical("/proc/self/exe", ec);
        if (!ec) {
            for (auto candidate : {exe.parent_path().parent_path().parent_path() / "web" / "dist",
                                   exe.parent_path().parent_path() / "share" / "storefront" / "web"})
                if (fs::is_directory(candidate, ec)) return candidate.string();
        }
        return "web/dist";
    }

    std::string configFile_;
    bool helpShown_ = false;
};

// The settings for a shell command: the environment and an optional properties file.
storefront::app::Config commandConfig(const std::string& configFile, bool createDatabaseFolder = true) {
    Poco::AutoPtr<Poco::Util::AbstractConfiguration> props;
    if (!configFile.empty()) props = new Poco::Util::PropertyFileConfiguration(configFile);
    else props = new Poco::Util::MapConfiguration;
    auto config = storefront::app::loadConfig(*props, storefront::app::processEnv, "web/dist");
    if (createDatabaseFolder && !config.postgres()) {
        auto parent = std::filesystem::path(config.database).parent_path();
        if (!parent.empty()) std::filesystem::create_directories(parent);
    }
    return config;
}

// `storefront keys rotate|list [--config=FILE]` (the logic is in auth/signing_keys).
int keysCommand(const std::vector<std::string>& args) {
    const char* usage = "usage: storefront keys rotate|list [--config=FILE]\n";
    std::string configFile;
    if (args.size() < 2 || (args[1] != "rotate" && args[1] != "list")) {
        std::cerr << usage;
        return Application::EXIT_USAGE;
    }
    for (std::size_t i = 2; i < args.size(); ++i) {
        if (args[i] == "--config" && i + 1 < args.size()) configFile = args[++i];
        else if (args[i].starts_with("--config=")) configFile = args[i].substr(9);
        else {
            std::cerr << "storefront: unexpected argument '" << args[i] << "'\n" << usage;
            return Application::EXIT_USAGE;
        }
    }
    try {
        auto config = commandConfig(configFile);
        auto db = storefront::db::Database::open(config.database);
        storefront::db::migrate(*db);
        const int lifetime = config.auth.jwtExpirySeconds;
        const auto keys = args[1] == "rotate" ? storefront::auth::SigningKeys::rotate(*db, lifetime)
                                              : storefront::auth::SigningKeys::list(*db, lifetime);
        if (args[1] == "rotate" && !keys.empty())
            std::cout << "new signing key " << keys.back().kid << " (servers sign with it within seconds)\n";
        for (const auto& key : keys) {
            std::cout << key.kid << "  created " << key.createdAt << "  " << key.state;
            if (!key.verifiesUntil.empty()) std::cout << (key.state == "verifying" ? " until " : " since ") << key.verifiesUntil;
            std::cout << "\n";
        }
        return Application::EXIT_OK;
    } catch (const std::exception& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return Application::EXIT_SOFTWARE;
    }
}

// `storefront users create --email E [--admin] [--config=FILE]`, outside POCO's option parser
// (which only knows --name=value).
int usersCommand(const std::vector<std::string>& args) {
    const char* usage = "usage: storefront users create --email E [--admin] [--config=FILE]\n";
    std::string email, configFile;
    bool admin = false;
    if (args.size() < 2 || args[1] != "create") {
        std::cerr << usage;
        return Application::EXIT_USAGE;
    }
    for (std::size_t i = 2; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--admin") admin = true;
        else if (a == "--email" && i + 1 < args.size()) email = args[++i];
        else if (a.starts_with("--email=")) email = a.substr(8);
        else if (a == "--config" && i + 1 < args.size()) configFile = args[++i];
        else if (a.starts_with("--config=")) configFile = a.substr(9);
        else {
            std::cerr << "storefront: unexpected argument '" << a << "'\n" << usage;
            return Application::EXIT_USAGE;
        }
    }
    if (email.empty()) {
        std::cerr << usage;
        return Application::EXIT_USAGE;
    }
    try {
        auto config = commandConfig(configFile);
        std::optional<std::string> password;
        if (!isatty(STDIN_FILENO)) {
            std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
            while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
            if (!text.empty()) password = text;
        }
        auto db = storefront::db::Database::open(config.database);
        storefront::db::migrate(*db);
        storefront::db::RateLimiter limiter(*db);
        storefront::mail::Module mail(*db, config.mail);
        storefront::auth::Module accounts(*db, config.auth, config.publicUrl, limiter, mail.outbox(), 1, 1);
        auto created = accounts.admin().createFromShell(email, password, admin);
        std::cout << "created " << (admin ? "admin " : "user ") << storefront::auth::normalizeEmail(email) << " (" << created.id << ")\n";
        if (created.setPasswordLink)
            std::cout << "send them this one-time link to set a password (valid " << config.auth.linkExpirySeconds / 3600
                      << " hours):\n" << *created.setPasswordLink << "\n";
        return Application::EXIT_OK;
    } catch (const storefront::http::ApiError& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return Application::EXIT_DATAERR;
    } catch (const std::exception& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return Application::EXIT_SOFTWARE;
    }
}

// `storefront jobs run inactivity [--dry-run] [--config=FILE]`: one pass of the WireWrite
// inactivity job, under the same lock as the servers' scheduled runs.
int jobsCommand(const std::vector<std::string>& args) {
    const char* usage = "usage: storefront jobs run inactivity [--dry-run] [--config=FILE]\n";
    if (args.size() < 3 || args[1] != "run" || args[2] != "inactivity") {
        std::cerr << usage;
        return Application::EXIT_USAGE;
    }
    bool dryRun = false;
    std::string configFile;
    for (std::size_t i = 3; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--dry-run") dryRun = true;
        else if (a == "--config" && i + 1 < args.size()) configFile = args[++i];
        else if (a.starts_with("--config=")) configFile = a.substr(9);
        else {
            std::cerr << "storefront: unexpected argument '" << a << "'\n" << usage;
            return Application::EXIT_USAGE;
        }
    }
    try {
        auto config = commandConfig(configFile);
        auto db = storefront::db::Database::open(config.database);
        storefront::db::migrate(*db);
        storefront::mail::Module mail(*db, config.mail);
        storefront::companion::Module companion(*db, config.wirewrite, mail.outbox(), {});
        auto report = companion.inactivity().run(dryRun);
        if (!report.ran) {
            std::cout << "inactivity: another server is running the job; nothing done\n";
            return Application::EXIT_TEMPFAIL;
        }
        std::cout << "inactivity" << (dryRun ? " (dry run, nothing changed)" : "") << ": " << report.warned
                  << " worker(s) " << (dryRun ? "to warn" : "warned") << ", " << report.deleted << " worker(s) "
                  << (dryRun ? "to delete" : "deleted") << "\n";
        return Application::EXIT_OK;
    } catch (const std::exception& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return Application::EXIT_SOFTWARE;
    }
}

// `storefront backup --to FILE [--config=FILE]` and `storefront restore --from FILE [--config=FILE]`
// (the logic is in app/backup).
int backupCommand(const std::vector<std::string>& args) {
    const bool backup = args[0] == "backup";
    const std::string flag = backup ? "--to" : "--from";
    const std::string usage = backup ? "usage: storefront backup --to FILE [--config=FILE]\n"
                                     : "usage: storefront restore --from FILE [--config=FILE]\n";
    std::string file, configFile;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == flag && i + 1 < args.size()) file = args[++i];
        else if (a.starts_with(flag + "=")) file = a.substr(flag.size() + 1);
        else if (a == "--config" && i + 1 < args.size()) configFile = args[++i];
        else if (a.starts_with("--config=")) configFile = a.substr(9);
        else if (a == "--help" || a == "-h") {
            std::cout << usage;
            return Application::EXIT_OK;
        } else {
            std::cerr << "storefront: unexpected argument '" << a << "'\n" << usage;
            return Application::EXIT_USAGE;
        }
    }
    if (file.empty()) {
        std::cerr << usage;
        return Application::EXIT_USAGE;
    }
    try {
        auto config = commandConfig(configFile, false);
        if (backup) storefront::app::writeBackup(config, file, std::cout);
        else storefront::app::restoreBackup(config, file, std::cout);
        return Application::EXIT_OK;
    } catch (const storefront::app::BackupRefused& e) {
        std::cerr << "storefront " << args[0] << ": " << e.what() << "\n";
        return Application::EXIT_DATAERR;
    } catch (const std::exception& e) {
        std::cerr << "storefront " << args[0] << " failed: " << e.what() << "\n";
        return Application::EXIT_SOFTWARE;
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "users") return usersCommand(std::vector<std::string>(argv + 1, argv + argc));
    if (argc > 1 && std::string(argv[1]) == "keys") return keysCommand(std::vector<std::string>(argv + 1, argv + argc));
    if (argc > 1 && (std::string(argv[1]) == "backup" || std::string(argv[1]) == "restore"))
        return backupCommand(std::vector<std::string>(argv + 1, argv + argc));
    if (argc > 1 && std::string(argv[1]) == "jobs") return jobsCommand(std::vector<std::string>(argv + 1, argv + argc));
    try {
        StorefrontApplication app;
        return app.run(argc, argv);
    } catch (const Poco::Exception& e) {
        std::cerr << e.displayText() << std::endl;
        return Application::EXIT_SOFTWARE;
    }
}
