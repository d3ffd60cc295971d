#pragma once
// The WireWrite companion tool's settings. app/config.cpp reads them (docs/configuration.md and
// docs/wirewrite.md list each with its default).
#include <string>

namespace storefront::companion {

struct Settings {
    // Where the companion app lives; the staff dashboard's "Open WireWrite" opens it in a new tab.
    std::string appUrl = "https://wirewrite.signalcraft.co.nz";
    // Certificates (drafts and issued) a free-tier worker may hold; pro is unlimited.
    int freeCertificateLimit = 10;
    // The inactivity job: warn after warnDays without activity, delete free workers after
    // deleteDays (and never sooner than deleteDays - warnDays after the warning).
    bool inactivityEnabled = true;
    int inactivityWarnDays = 75;
    int inactivityDeleteDays = 90;
    int inactivityIntervalSeconds = 3600; // how often the server runs it
};

} // namespace storefront::companion
