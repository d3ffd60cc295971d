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
//
// Every command has its own --help. Exit codes (sysexits.h): 0 done, 64 a usage error, 65 refused
// (bad input: a duplicate user, a damaged archive), 70 failed, 75 try again later (another server
// holds the job), 78 a configuration error (and the production check).
#include "app/backup.h"
#include "app/config.h"
#include "app/production.h"
#include "app/storefront.h"
#include "auth/module.h"
#include "auth/signing_keys.h"
#include "common/buffered_log_channel.h"
#include "common/clock.h"
#include "common/malloc_tuning.h"
#include "companion/module.h"
#include "db/database.h"
#include "db/migrations.h"
#include "db/rate_limiter.h"
#include "http/api_error.h"
#include "mail/module.h"

#include <CLI/CLI.hpp>
#include <Poco/AutoPtr.h>
#include <Poco/Logger.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Util/PropertyFileConfiguration.h>

#include <signal.h>
#include <sysexits.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <thread>

namespace {

namespace fs = std::filesystem;
using storefront::app::Config;

// ---- settings and logging ----------------------------------------------------------------------

// The settings: the environment and an optional properties file (--config), read once.
Config loadSettings(const std::string& configFile, const std::string& webDir) {
    Poco::AutoPtr<Poco::Util::AbstractConfiguration> props;
    if (!configFile.empty()) props = new Poco::Util::PropertyFileConfiguration(configFile);
    else props = new Poco::Util::MapConfiguration;
    return storefront::app::loadConfig(*props, storefront::app::processEnv, webDir);
}

// The web build next to a source checkout (build/server/storefront -> web/dist), else where
// `cmake --install` puts it (PREFIX/bin/storefront -> PREFIX/share/storefront/web), else ./web/dist.
std::string defaultWebDir() {
    std::error_code ec;
    auto exe = fs::canonical("/proc/self/exe", ec);
    if (!ec) {
        for (auto candidate : {exe.parent_path().parent_path().parent_path() / "web" / "dist",
                               exe.parent_path().parent_path() / "share" / "storefront" / "web"})
            if (fs::is_directory(candidate, ec)) return candidate.string();
    }
    return "web/dist";
}

// The first step on a new host: the SQLite file's folder may not exist yet.
void createDatabaseFolder(const Config& config) {
    if (config.postgres()) return;
    auto parent = fs::path(config.database).parent_path();
    if (!parent.empty()) fs::create_directories(parent);
}

// Every log line goes to standard error (journald keeps it under systemd; docs/operations.md),
// through a buffer and a writer thread (common/buffered_log_channel.h): the access log line must
// not cost a write(2) per request. Text ("%Y-%m-%dT%H:%M:%S.%iZ %p %s: %t" in UTC, as
// PatternFormatter would write it) or one JSON object per line (STOREFRONT_LOG_FORMAT=json).
// Written out when the returned object goes.
struct Logging {
    explicit Logging(const Config& config) {
        const auto style = config.logFormat == "json" ? storefront::common::LogLineFormatter::Style::Json
                                                      : storefront::common::LogLineFormatter::Style::Text;
        Poco::AutoPtr<Poco::Formatter> formatter(new storefront::common::LogLineFormatter(style));
        channel = new storefront::common::BufferedLogChannel(formatter, STDERR_FILENO);
        Poco::Logger::root().setChannel(channel);
        Poco::Logger::root().setLevel(config.logLevel);
    }
    ~Logging() { channel->close(); }
    Logging(const Logging&) = delete;
    Logging& operator=(const Logging&) = delete;
    Poco::AutoPtr<storefront::common::BufferedLogChannel> channel;
};

// ---- the parts a shell command uses --------------------------------------------------------------

// The one place the shell commands get their parts: the database (migrated) on the server's clock,
// and the modules a command needs, built on demand from the same settings as the server's.
class CommandParts {
public:
    CommandParts(const Config& config, const storefront::Clock& clock) : config_(config) {
        createDatabaseFolder(config);
        db_ = storefront::db::Database::open(config.database, {}, clock);
        storefront::db::migrate(*db_);
    }
    storefront::db::Database& db() { return *db_; }
    storefront::mail::Module& mail() {
        if (!mail_) mail_ = std::make_unique<storefront::mail::Module>(*db_, config_.mail);
        return *mail_;
    }
    storefront::auth::Module& auth() {
        if (!auth_) {
            limiter_ = std::make_unique<storefront::db::RateLimiter>(*db_);
            auth_ = std::make_unique<storefront::auth::Module>(*db_, config_.auth, config_.publicUrl, *limiter_, mail().outbox(), 1, 1);
        }
        return *auth_;
    }
    storefront::companion::Module& companion() {
        if (!companion_)
            companion_ = std::make_unique<storefront::companion::Module>(*db_, config_.wirewrite, mail().outbox(),
                                                                         storefront::companion::SystemStatus{}, db_->clock());
        return *companion_;
    }

private:
    const Config& config_;
    std::unique_ptr<storefront::db::Database> db_;
    std::unique_ptr<storefront::db::RateLimiter> limiter_;
    std::unique_ptr<storefront::mail::Module> mail_;
    std::unique_ptr<storefront::auth::Module> auth_;
    std::unique_ptr<storefront::companion::Module> companion_;
};

// ---- the commands ------------------------------------------------------------------------------

// Blocks SIGINT, SIGQUIT and SIGTERM in this thread and in every thread it starts from now on, so
// that waitForTermination() receives them.
sigset_t blockTerminationSignals() {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGQUIT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    return signals;
}

void waitForTermination(const sigset_t& signals) {
    int received = 0;
    while (sigwait(&signals, &received) != 0) {
    }
}

int serve(const std::string& configFile) {
    Config config;
    try {
        config = loadSettings(configFile, defaultWebDir());
    } catch (const std::exception& e) {
        std::cerr << "storefront: configuration error: " << e.what() << "\n";
        return EX_CONFIG;
    }
    Logging logging(config);
    // Production fails closed, naming every unfit setting at once. The shell commands do not
    // check: an operator migrates and creates the first admin before payments and mail are set up.
    if (auto problems = storefront::app::productionProblems(config); !problems.empty()) {
        std::cerr << "storefront: configuration error: " << storefront::app::describeProductionProblems(problems) << "\n";
        return EX_CONFIG;
    }
    // Before the request threads exist: each thread that meets a busy arena may create another.
    if (config.mallocArenaMax > 0 && !storefront::common::limitMallocArenas(config.mallocArenaMax))
        Poco::Logger::get("storefront").warning("STOREFRONT_MALLOC_ARENA_MAX is not supported by this C library; ignored");
    const auto termination = blockTerminationSignals();
    storefront::app::Storefront server(config, storefront::systemClock());
    try {
        server.start();
    } catch (const std::exception& e) {
        Poco::Logger::get("storefront").fatal("could not start: %s", std::string(e.what()));
        return EX_SOFTWARE;
    }
    waitForTermination(termination);
    Poco::Logger::get("storefront").information("shutting down (drain timeout %d s)", config.drainSeconds);
    // The HTTP server cuts connections still busy after the drain timeout; should a request be
    // stuck past that (e.g. in the database), the process still ends, a little later.
    std::thread([seconds = config.drainSeconds + 5] {
        std::this_thread::sleep_for(std::chrono::seconds(seconds));
        Poco::Logger::get("storefront").fatal("shutdown took longer than the drain timeout + 5 s; exiting now");
        std::_Exit(EX_SOFTWARE);
    }).detach();
    server.stop();
    Poco::Logger::get("storefront").information("stopped");
    return EX_OK;
}

int migrateCommand(const std::string& configFile) {
    Config config;
    try {
        config = loadSettings(configFile, defaultWebDir());
    } catch (const std::exception& e) {
        std::cerr << "storefront: configuration error: " << e.what() << "\n";
        return EX_CONFIG;
    }
    Logging logging(config);
    try {
        createDatabaseFolder(config);
        auto db = storefront::db::Database::open(config.database, {}, storefront::systemClock());
        auto applied = storefront::db::migrate(*db);
        std::cout << "applied " << applied.size() << " migration(s)\n";
        return EX_OK;
    } catch (const std::exception& e) {
        Poco::Logger::get("storefront").fatal("migrate failed: %s", std::string(e.what()));
        std::cerr << "storefront migrate failed: " << e.what() << "\n";
        return EX_SOFTWARE;
    }
}

// `storefront keys rotate|list` (the logic is in auth/signing_keys).
int keysCommand(const std::string& configFile, bool rotate) {
    try {
        const auto config = loadSettings(configFile, "web/dist");
        CommandParts parts(config, storefront::systemClock());
        const int lifetime = config.auth.jwtExpirySeconds;
        const auto keys = rotate ? storefront::auth::SigningKeys::rotate(parts.db(), lifetime)
                                 : storefront::auth::SigningKeys::list(parts.db(), lifetime);
        if (rotate && !keys.empty()) std::cout << "new signing key " << keys.back().kid << " (servers sign with it within seconds)\n";
        for (const auto& key : keys) {
            std::cout << key.kid << "  created " << key.createdAt << "  " << key.state;
            if (!key.verifiesUntil.empty()) std::cout << (key.state == "verifying" ? " until " : " since ") << key.verifiesUntil;
            std::cout << "\n";
        }
        return EX_OK;
    } catch (const std::exception& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return EX_SOFTWARE;
    }
}

// `storefront users create --email E [--admin]`.
int usersCreateCommand(const std::string& configFile, const std::string& email, bool admin) {
    try {
        const auto config = loadSettings(configFile, "web/dist");
        std::optional<std::string> password;
        if (!isatty(STDIN_FILENO)) {
            std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
            while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
            if (!text.empty()) password = text;
        }
        CommandParts parts(config, storefront::systemClock());
        auto created = parts.auth().admin().createFromShell(email, password, admin);
        std::cout << "created " << (admin ? "admin " : "user ") << storefront::auth::normalizeEmail(email) << " (" << created.id << ")\n";
        if (created.setPasswordLink)
            std::cout << "send them this one-time link to set a password (valid " << config.auth.linkExpirySeconds / 3600
                      << " hours):\n" << *created.setPasswordLink << "\n";
        return EX_OK;
    } catch (const storefront::http::ApiError& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return EX_DATAERR;
    } catch (const std::exception& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return EX_SOFTWARE;
    }
}

// `storefront jobs run inactivity [--dry-run]`: one pass of the WireWrite inactivity job, under
// the same lock as the servers' scheduled runs.
int inactivityCommand(const std::string& configFile, bool dryRun) {
    try {
        const auto config = loadSettings(configFile, "web/dist");
        CommandParts parts(config, storefront::systemClock());
        auto report = parts.companion().inactivity().run(dryRun);
        if (!report.ran) {
            std::cout << "inactivity: another server is running the job; nothing done\n";
            return EX_TEMPFAIL;
        }
        std::cout << "inactivity" << (dryRun ? " (dry run, nothing changed)" : "") << ": " << report.warned << " worker(s) "
                  << (dryRun ? "to warn" : "warned") << ", " << report.deleted << " worker(s) " << (dryRun ? "to delete" : "deleted")
                  << "\n";
        return EX_OK;
    } catch (const std::exception& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return EX_SOFTWARE;
    }
}

// `storefront backup --to FILE` and `storefront restore --from FILE` (the logic is in app/backup
// and app/restore). No database folder is created: a restore wants it absent.
int backupCommand(const std::string& configFile, bool backup, const std::string& file) {
    const char* name = backup ? "backup" : "restore";
    try {
        const auto config = loadSettings(configFile, "web/dist");
        if (backup) storefront::app::writeBackup(config, file, std::cout, storefront::systemClock());
        else storefront::app::restoreBackup(config, file, std::cout);
        return EX_OK;
    } catch (const storefront::app::BackupRefused& e) {
        std::cerr << "storefront " << name << ": " << e.what() << "\n";
        return EX_DATAERR;
    } catch (const std::exception& e) {
        std::cerr << "storefront " << name << " failed: " << e.what() << "\n";
        return EX_SOFTWARE;
    }
}

// ---- the command line --------------------------------------------------------------------------

int run(int argc, char** argv) {
    CLI::App app{"The Storefront server. Settings come from the environment and an optional properties file; "
                 "see docs/configuration.md. Without a command it serves."};
    app.name("storefront");
    std::string configFile;
    // --config on the server and on every command, so it may come before or after the command.
    auto addConfig = [&configFile](CLI::App& command) {
        command.add_option("-c,--config", configFile, "read settings from a properties file")->option_text("FILE");
    };
    addConfig(app);

    auto* migrate = app.add_subcommand("migrate", "apply pending migrations and exit");
    addConfig(*migrate);

    auto* users = app.add_subcommand("users", "manage accounts from the shell")->require_subcommand(1);
    auto* usersCreate = users->add_subcommand(
        "create", "create a confirmed user; the password is read from standard input when it is piped, otherwise "
                  "a one-time link to set it is printed");
    std::string email;
    bool admin = false;
    usersCreate->add_option("--email", email, "the user's email address")->required()->option_text("E");
    usersCreate->add_flag("--admin", admin, "make the user a staff admin");
    addConfig(*usersCreate);

    auto* keys = app.add_subcommand("keys", "the access-token signing keys")->require_subcommand(1);
    auto* keysRotate = keys->add_subcommand("rotate", "add a new signing key (old ones verify until their tokens expire)");
    auto* keysList = keys->add_subcommand("list", "show the signing keys");
    addConfig(*keysRotate);
    addConfig(*keysList);

    auto* jobs = app.add_subcommand("jobs", "background jobs")->require_subcommand(1);
    auto* jobsRun = jobs->add_subcommand("run", "run a job once")->require_subcommand(1);
    auto* inactivity = jobsRun->add_subcommand("inactivity", "the WireWrite inactivity job (docs/wirewrite.md)");
    bool dryRun = false;
    inactivity->add_flag("--dry-run", dryRun, "count what it would do, change nothing");
    addConfig(*inactivity);

    std::string archive;
    auto* backup = app.add_subcommand("backup", "write one archive of the database and the key files while the server "
                                                "serves (docs/operations.md, \"Backups\")");
    backup->add_option("--to", archive, "the archive to write")->required()->option_text("FILE");
    addConfig(*backup);
    auto* restore = app.add_subcommand("restore", "restore such an archive into an empty data folder");
    restore->add_option("--from", archive, "the archive to read")->required()->option_text("FILE");
    addConfig(*restore);

    app.require_subcommand(0, 1);

    // The usage line printed after a usage error, by the command it was found in.
    const std::map<const CLI::App*, std::string> usage = {
        {&app, "storefront [migrate | users create ... | keys rotate|list | jobs run inactivity | backup --to FILE | "
               "restore --from FILE] [--config=FILE]"},
        {migrate, "storefront migrate [--config=FILE]"},
        {users, "storefront users create --email E [--admin] [--config=FILE]"},
        {usersCreate, "storefront users create --email E [--admin] [--config=FILE]"},
        {keys, "storefront keys rotate|list [--config=FILE]"},
        {keysRotate, "storefront keys rotate|list [--config=FILE]"},
        {keysList, "storefront keys rotate|list [--config=FILE]"},
        {jobs, "storefront jobs run inactivity [--dry-run] [--config=FILE]"},
        {jobsRun, "storefront jobs run inactivity [--dry-run] [--config=FILE]"},
        {inactivity, "storefront jobs run inactivity [--dry-run] [--config=FILE]"},
        {backup, "storefront backup --to FILE [--config=FILE]"},
        {restore, "storefront restore --from FILE [--config=FILE]"},
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help: that command's help on standard output, exit 0. Anything else: the error and the
        // usage of the command it was found in, exit 64.
        if (app.exit(e) == 0) return EX_OK;
        const CLI::App* command = &app;
        while (!command->get_subcommands().empty()) command = command->get_subcommands().front();
        std::cerr << "usage: " << usage.at(command) << "\n";
        return EX_USAGE;
    }

    if (migrate->parsed()) return migrateCommand(configFile);
    if (usersCreate->parsed()) return usersCreateCommand(configFile, email, admin);
    if (keysRotate->parsed() || keysList->parsed()) return keysCommand(configFile, keysRotate->parsed());
    if (inactivity->parsed()) return inactivityCommand(configFile, dryRun);
    if (backup->parsed() || restore->parsed()) return backupCommand(configFile, backup->parsed(), archive);
    return serve(configFile);
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "storefront: " << e.what() << "\n";
        return EX_SOFTWARE;
    }
}
