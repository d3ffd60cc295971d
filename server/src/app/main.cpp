// storefront: the web storefront, customer account site and staff back office server.
//
//   storefront [--config=FILE]            serve (settings: docs/configuration.md)
//   storefront migrate [--config=FILE]    apply pending migrations and exit
#include "app/config.h"
#include "app/storefront.h"
#include "db/database.h"
#include "db/migrations.h"

#include <Poco/AutoPtr.h>
#include <Poco/ConsoleChannel.h>
#include <Poco/FormattingChannel.h>
#include <Poco/Logger.h>
#include <Poco/PatternFormatter.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/PropertyFileConfiguration.h>
#include <Poco/Util/ServerApplication.h>

#include <filesystem>
#include <iostream>

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
        help.setUsage("[migrate] [--config=FILE]");
        help.setHeader("The Storefront server. Settings come from the environment and an optional properties file; "
                       "see docs/configuration.md.");
        help.format(std::cout);
        helpShown_ = true;
        stopOptionsProcessing();
    }

    int main(const std::vector<std::string>& args) override {
        if (helpShown_) return EXIT_OK;
        setupLogging();
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
        Poco::Logger::root().setLevel(config.logLevel);

        if (!args.empty() && args[0] == "migrate") {
            auto db = storefront::db::Database::open(config.database);
            auto applied = storefront::db::migrate(*db);
            std::cout << "applied " << applied.size() << " migration(s)\n";
            return EXIT_OK;
        }
        if (!args.empty()) {
            std::cerr << "storefront: unknown command '" << args[0] << "' (try --help)\n";
            return EXIT_USAGE;
        }

        storefront::app::Storefront server(config);
        try {
            server.start();
        } catch (const std::exception& e) {
            Poco::Logger::get("storefront").fatal("could not start: %s", std::string(e.what()));
            return EXIT_SOFTWARE;
        }
        waitForTerminationRequest(); // SIGINT / SIGTERM
        Poco::Logger::get("storefront").information("shutting down");
        server.stop();
        Poco::Logger::get("storefront").information("stopped");
        return EXIT_OK;
    }

private:
    static void setupLogging() {
        Poco::AutoPtr<Poco::PatternFormatter> formatter(new Poco::PatternFormatter("%Y-%m-%dT%H:%M:%S.%iZ %p %s: %t"));
        formatter->setProperty("times", "UTC");
        Poco::AutoPtr<Poco::ConsoleChannel> console(new Poco::ConsoleChannel);
        Poco::AutoPtr<Poco::FormattingChannel> channel(new Poco::FormattingChannel(formatter, console));
        Poco::Logger::root().setChannel(channel);
    }

    // The web build next to a source checkout (build/server/storefront -> web/dist), else ./web/dist.
    std::string defaultWebDir() const {
        namespace fs = std::filesystem;
        std::error_code ec;
        auto exe = fs::canonical("/proc/self/exe", ec);
        if (!ec) {
            auto candidate = exe.parent_path().parent_path().parent_path() / "web" / "dist";
            if (fs::is_directory(candidate)) return candidate.string();
        }
        return "web/dist";
    }

    std::string configFile_;
    bool helpShown_ = false;
};

} // namespace

POCO_SERVER_MAIN(StorefrontApplication)
