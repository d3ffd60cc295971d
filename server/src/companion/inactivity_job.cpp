#include "companion/inactivity_job.h"

#include "audit/audit.h"
#include "db/job_lease.h"

#include <Poco/Logger.h>

namespace storefront::companion {

namespace {

constexpr std::int64_t kBatch = 200;
constexpr int kLeaseSeconds = 15 * 60; // a crashed holder's lease is free after this

} // namespace

mail::MailMessage inactivityWarning(const std::string& to, const std::optional<std::string>& fullName, int warnDays,
                                    int deleteDays, const std::string& deleteOn) {
    mail::MailMessage m;
    m.kind = "wirewrite_inactivity_warning";
    m.to = to;
    m.subject = "Your WireWrite account will be deleted soon";
    m.text = "Hello " + (fullName && !fullName->empty() ? *fullName : std::string("there")) + ",\n\n" +
             "you have not used WireWrite for " + std::to_string(warnDays) + " days. Free accounts are deleted, " +
             "with their certificates, after " + std::to_string(deleteDays) + " days without activity.\n\n" +
             "Open the WireWrite app before " + deleteOn.substr(0, 10) + " to keep your account. " +
             "Pro accounts are never deleted.\n\nThe WireWrite team\n";
    return m;
}

InactivityReport InactivityJob::run(bool dryRun) {
    if (db_.dialect() == db::Dialect::PostgreSQL) {
        // A session-level advisory lock on a session of our own, released before it goes back to
        // the pool (and by PostgreSQL if this server dies).
        auto session = db_.session();
        if (!db::JobLease::tryAdvisoryLock(session, kAdvisoryKey)) return {};
        try {
            auto report = pass(dryRun);
            db::JobLease::advisoryUnlock(session, kAdvisoryKey);
            return report;
        } catch (...) {
            db::JobLease::advisoryUnlock(session, kAdvisoryKey);
            throw;
        }
    }
    const auto holder = db::newId();
    // The lease is the database's (its clock is every server's); the rules below read the job's.
    const auto& dbClock = db_.clock();
    if (!db::JobLease(db_).take(kLeaseName, holder, dbClock.timestampAfter(kLeaseSeconds), dbClock.nowTimestamp())) return {};
    try {
        auto report = pass(dryRun);
        db::JobLease(db_).release(kLeaseName, holder);
        return report;
    } catch (...) {
        db::JobLease(db_).release(kLeaseName, holder);
        throw;
    }
}

InactivityReport InactivityJob::pass(bool dryRun) {
    InactivityReport report;
    report.ran = true;
    report.dryRun = dryRun;
    const auto nowMs = clock_.epochMillis();
    const auto now = timestampAt(nowMs);
    const auto warnBefore = timestampAt(nowMs - settings_.inactivityWarnDays * kDayMillis);
    const auto deleteBefore = timestampAt(nowMs - settings_.inactivityDeleteDays * kDayMillis);
    const auto warnedBy =
        timestampAt(nowMs - (settings_.inactivityDeleteDays - settings_.inactivityWarnDays) * kDayMillis);
    const auto deleteOn = timestampAt(nowMs + (settings_.inactivityDeleteDays - settings_.inactivityWarnDays) * kDayMillis);

    // Deletions first, so a worker is never warned and deleted in one pass.
    while (true) {
        auto ids = repo_.workersToDelete(deleteBefore, warnedBy, kBatch);
        if (dryRun) {
            report.deleted += static_cast<std::int64_t>(ids.size());
            break;
        }
        std::int64_t done = 0;
        for (const auto& id : ids) {
            db_.write([&](db::Tx& tx) {
                if (!repo_.deleteInactiveWorker(tx, id, deleteBefore, warnedBy)) return;
                // By id only: the person's data is what is being deleted.
                audit::record(tx, audit::systemActor(), {"worker.deleted_inactive", "worker", id, nullptr, nullptr,
                                                         {{"inactive_days", settings_.inactivityDeleteDays}}});
                ++done;
            });
        }
        report.deleted += done;
        if (static_cast<std::int64_t>(ids.size()) < kBatch || done == 0) break;
    }

    while (true) {
        auto workers = repo_.workersToWarn(warnBefore, kBatch);
        if (dryRun) {
            report.warned += static_cast<std::int64_t>(workers.size());
            break;
        }
        std::int64_t done = 0;
        for (const auto& w : workers) {
            db_.write([&](db::Tx& tx) {
                if (!repo_.markWarned(tx, w.id, warnBefore, now)) return;
                // Pro workers are flagged (the dashboard counts them) but never deleted: no warning.
                if (w.entitlement == "free" && w.email && mail::isValidEmailAddress(*w.email))
                    outbox_.enqueue(tx, inactivityWarning(*w.email, w.fullName, settings_.inactivityWarnDays,
                                                          settings_.inactivityDeleteDays, deleteOn));
                ++done;
            });
        }
        report.warned += done;
        if (static_cast<std::int64_t>(workers.size()) < kBatch || done == 0) break;
    }
    if (report.warned || report.deleted)
        Poco::Logger::get("companion").information("inactivity job: %Ld warned, %Ld deleted%s", report.warned, report.deleted,
                                                   std::string(dryRun ? " (dry run)" : ""));
    return report;
}

} // namespace storefront::companion
