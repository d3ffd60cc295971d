#pragma once
// The inactivity job: a worker without activity for warnDays (75) is flagged and (when free) sent
// ONE warning email through the outbox; a free worker without activity for deleteDays (90), and warned at
// least deleteDays - warnDays ago, is deleted with their certificates and redemptions. Pro workers
// are never deleted. Each worker is one transaction (flag + mail, or delete + audit entry by id),
// so a crash half-way leaves every worker either done or untouched. One server at a time runs it:
// a PostgreSQL advisory lock, or a lease row on SQLite.
#include "common/clock.h"
#include "companion/timestamps.h"
#include "companion/companion_repository.h"
#include "companion/settings.h"
#include "db/database.h"
#include "mail/outbox.h"

#include <cstdint>
#include <string>

namespace storefront::companion {

struct InactivityReport {
    bool ran = false;      // false: another server holds the job
    bool dryRun = false;
    std::int64_t warned = 0;  // flagged now (and mailed, when they have an address)
    std::int64_t deleted = 0;
};

class InactivityJob {
public:
    InactivityJob(db::Database& db, CompanionRepository& repo, mail::Outbox& outbox, const Settings& settings, const Clock& clock)
        : db_(db), repo_(repo), outbox_(outbox), settings_(settings), clock_(clock) {}

    // One pass. A dry run counts what it would do and changes nothing.
    InactivityReport run(bool dryRun = false);

    static constexpr const char* kLeaseName = "companion.inactivity";
    static constexpr std::int64_t kAdvisoryKey = 0x5757'0001; // "WW" 1

private:
    InactivityReport pass(bool dryRun);

    db::Database& db_;
    CompanionRepository& repo_;
    mail::Outbox& outbox_;
    const Settings& settings_;
    const Clock& clock_;
};

// The warning email.
mail::MailMessage inactivityWarning(const std::string& to, const std::optional<std::string>& fullName, int warnDays,
                                    int deleteDays, const std::string& deleteOn);

} // namespace storefront::companion
