#include "enterprise/enterprise_service.h"

#include "auth/context.h"
#include "enterprise/access.h"
#include "enterprise/account_json.h"
#include "http/api_error.h"
#include "mail/mail_message.h"

namespace storefront::enterprise {

namespace {

using http::ApiError;
using http::ErrorKind;

ApiError accountNotFound() { return ApiError::notFound("enterprise_account_not_found", "No such enterprise account."); }
ApiError licenceNotFound() { return ApiError::notFound("licence_not_found", "No such licence on this account."); }
ApiError memberNotFound() { return ApiError::notFound("member_not_found", "No such member on this account."); }

ApiError fieldError(const std::string& field, const std::string& message) {
    return ApiError::validation({{field, message}});
}

} // namespace

AccountDetails EnterpriseService::detailsIn(Poco::Data::Session& s, const std::string& accountId) {
    auto account = accounts_.find(s, accountId);
    if (!account) throw accountNotFound();
    return {*account, accounts_.members(s, accountId), licences_.forAccount(s, accountId)};
}

AccountDetails EnterpriseService::details(const std::string& accountId) {
    auto s = db_.session();
    return detailsIn(s, accountId);
}

void EnterpriseService::lockOrThrow(db::Tx& tx, const std::string& accountId) {
    if (!accounts_.lock(tx, accountId)) throw accountNotFound();
}

void EnterpriseService::fillSeats(db::Tx& tx, const std::string& accountId) {
    for (const auto& licence : licences_.forAccount(tx.session(), accountId)) {
        const auto free = licence.quantity - licence.usedCount;
        if (free <= 0) continue;
        for (const auto& memberId : licences_.waitingMembers(tx.session(), accountId, licence.id, free))
            if (!licences_.takeSeat(tx, licence.id, memberId)) break;
    }
}

void EnterpriseService::mailInvitation(db::Tx& tx, const std::string& email, const std::string& companyName,
                                       const std::string& link) {
    mail::MailMessage m;
    m.kind = "enterprise_invite";
    m.to = email;
    m.subject = "Your " + siteName_ + " enterprise account for " + companyName;
    m.text = siteName_ + " has set up an enterprise account for " + companyName +
             ", with you as its administrator.\n\nChoose a password to sign in and manage your team's licences:\n\n" + link +
             "\n\nThe link works once. If it has expired, ask for a password reset from the sign-in dialog.\n";
    outbox_.enqueue(tx, m);
}

AccountDetails EnterpriseService::create(const audit::Actor& actor, const CreateAccountInput& input, bool& invited) {
    const auto adminEmail = auth::normalizeEmail(input.adminEmail);
    std::string accountId;
    invited = false;
    db_.write([&](db::Tx& tx) {
        std::string adminId;
        if (auto user = userRecords_.findByEmail(tx.session(), adminEmail)) {
            adminId = user->id;
            if (accounts_.findAdministeredBy(tx.session(), adminId))
                throw ApiError(ErrorKind::Conflict, "already_enterprise_admin",
                               "That user already administers an enterprise account.");
        } else {
            auto created = users_.inviteWithin(tx, adminEmail, publicUrl_ + "/enterprise", actor);
            adminId = created.id;
            mailInvitation(tx, adminEmail, input.companyName, created.link);
            invited = true;
        }
        accountId = accounts_.insert(tx, {adminId, input.companyName, auth::normalizeEmail(input.billingEmail),
                                          input.maxLicenses.value_or(5)});
        accounts_.insertMember(tx, accountId, adminId, "admin", std::nullopt);
        auto after = accountJson(*accounts_.find(tx.session(), accountId));
        audit::record(tx, actor, {"enterprise_account.created", "enterprise_account", accountId, nullptr, after,
                                  {{"admin_invited", invited}}});
    });
    return details(accountId);
}

Account EnterpriseService::update(const audit::Actor& actor, const std::string& accountId, const AccountChanges& input) {
    Account result;
    db_.write([&](db::Tx& tx) {
        lockOrThrow(tx, accountId);
        auto before = *accounts_.find(tx.session(), accountId);
        AccountChanges changes = input;
        if (changes.billingEmail) changes.billingEmail = auth::normalizeEmail(*changes.billingEmail);
        if (changes.maxLicenses && *changes.maxLicenses < before.memberCount)
            throw fieldError("max_licenses", "Cannot be below the " + std::to_string(before.memberCount) +
                                                 " members already on the team.");
        accounts_.update(tx, accountId, changes);
        result = *accounts_.find(tx.session(), accountId);
        audit::record(tx, actor, {"enterprise_account.updated", "enterprise_account", accountId, accountJson(before),
                                  accountJson(result)});
    });
    return result;
}

Licence EnterpriseService::addLicence(const audit::Actor& actor, const std::string& accountId, const std::string& productId,
                                      std::int64_t quantity) {
    Licence result;
    db_.write([&](db::Tx& tx) {
        lockOrThrow(tx, accountId);
        if (!licences_.productExists(tx.session(), productId)) throw fieldError("product_id", "No such product.");
        if (licences_.existsFor(tx.session(), accountId, productId))
            throw ApiError(ErrorKind::Conflict, "licence_exists",
                           "This account already has a licence for that product: change its quantity instead.");
        const auto id = licences_.insert(tx, accountId, productId, quantity);
        fillSeats(tx, accountId);
        result = *licences_.find(tx.session(), accountId, id);
        audit::record(tx, actor, {"enterprise_licence.created", "enterprise_licence", id, nullptr, licenceJson(result),
                                  {{"enterprise_account_id", accountId}}});
    });
    return result;
}

Licence EnterpriseService::changeLicence(const audit::Actor& actor, const std::string& accountId,
                                         const std::string& licenceId, std::int64_t quantity) {
    Licence result;
    db_.write([&](db::Tx& tx) {
        lockOrThrow(tx, accountId);
        auto before = licences_.find(tx.session(), accountId, licenceId);
        if (!before) throw licenceNotFound();
        if (!licences_.setQuantity(tx, licenceId, quantity))
            throw fieldError("quantity", "Cannot be below the " + std::to_string(before->usedCount) +
                                             " seats in use: remove members first.");
        fillSeats(tx, accountId);
        result = *licences_.find(tx.session(), accountId, licenceId);
        audit::record(tx, actor, {"enterprise_licence.updated", "enterprise_licence", licenceId, licenceJson(*before),
                                  licenceJson(result), {{"enterprise_account_id", accountId}}});
    });
    return result;
}

void EnterpriseService::removeLicence(const audit::Actor& actor, const std::string& accountId, const std::string& licenceId) {
    db_.write([&](db::Tx& tx) {
        lockOrThrow(tx, accountId);
        auto before = licences_.find(tx.session(), accountId, licenceId);
        if (!before) throw licenceNotFound();
        licences_.remove(tx, licenceId);
        audit::record(tx, actor, {"enterprise_licence.deleted", "enterprise_licence", licenceId, licenceJson(*before), nullptr,
                                  {{"enterprise_account_id", accountId}}});
    });
}

AccountDetails EnterpriseService::team(const std::string& adminUserId) {
    auto s = db_.session();
    auto account = accounts_.findAdministeredBy(s, adminUserId);
    if (!account) throw noAccount();
    return {*account, accounts_.members(s, account->id), licences_.forAccount(s, account->id)};
}

Member EnterpriseService::addMember(const audit::Actor& actor, const std::string& adminUserId, const std::string& rawEmail) {
    const auto email = auth::normalizeEmail(rawEmail);
    Member result;
    db_.write([&](db::Tx& tx) {
        auto owned = accounts_.findAdministeredBy(tx.session(), adminUserId);
        if (!owned) throw noAccount();
        // The lock first, then every read the limit depends on.
        lockOrThrow(tx, owned->id);
        auto account = *accounts_.find(tx.session(), owned->id);
        if (!account.isActive)
            throw ApiError(ErrorKind::Conflict, "enterprise_account_inactive",
                           "This enterprise account is inactive: contact sales to reactivate it.");
        auto user = userRecords_.findByEmail(tx.session(), email);
        if (!user) throw ApiError(ErrorKind::NotFound, "user_not_found", "User not found. They must create an account first.");
        if (accounts_.isMember(tx.session(), account.id, user->id))
            throw ApiError(ErrorKind::Conflict, "already_member", "That user is already a member of this enterprise account.");
        if (accounts_.memberCount(tx.session(), account.id) >= account.maxLicenses)
            throw ApiError(ErrorKind::Conflict, "license_limit_reached",
                           "License limit reached (" + std::to_string(account.maxLicenses) + " licenses)");
        const auto memberId = accounts_.insertMember(tx, account.id, user->id, "member", adminUserId);
        fillSeats(tx, account.id);
        result = *accounts_.findMember(tx.session(), account.id, memberId);
        audit::record(tx, actor, {"enterprise_member.added", "enterprise_member", memberId, nullptr, memberJson(result),
                                  {{"enterprise_account_id", account.id}}});
    });
    return result;
}

void EnterpriseService::removeMember(const audit::Actor& actor, const std::string& adminUserId, const std::string& memberId) {
    db_.write([&](db::Tx& tx) {
        auto owned = accounts_.findAdministeredBy(tx.session(), adminUserId);
        if (!owned) throw noAccount();
        lockOrThrow(tx, owned->id);
        auto member = accounts_.findMember(tx.session(), owned->id, memberId);
        if (!member) throw memberNotFound();
        if (member->role == "admin" || member->userId == owned->adminUserId)
            throw ApiError(ErrorKind::Conflict, "cannot_remove_admin", "The account's admin cannot be removed from the team.");
        licences_.freeSeatsOf(tx, memberId);
        accounts_.deleteMember(tx, memberId);
        fillSeats(tx, owned->id);
        audit::record(tx, actor, {"enterprise_member.removed", "enterprise_member", memberId, memberJson(*member), nullptr,
                                  {{"enterprise_account_id", owned->id}}});
    });
}

void EnterpriseService::removeFromEveryTeam(db::Tx& tx, const audit::Actor& actor, const std::string& userId) {
    for (const auto& m : accounts_.membershipsOf(tx.session(), userId)) {
        lockOrThrow(tx, m.accountId);
        licences_.freeSeatsOf(tx, m.memberId);
        accounts_.deleteMember(tx, m.memberId);
        fillSeats(tx, m.accountId);
        audit::record(tx, actor, {"enterprise_member.removed", "enterprise_member", m.memberId, nullptr, nullptr,
                                  {{"enterprise_account_id", m.accountId}, {"reason", "account_closed"}}});
    }
}

} // namespace storefront::enterprise
