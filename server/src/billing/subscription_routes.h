#pragma once
// HTTP for the subscription lifecycle (docs/api.md, "Subscriptions"): the owner's cancel, resume,
// change preview and change plan under /api/v1/account/subscriptions/{id}, and staff's cancel under
// /api/v1/admin/subscriptions/{id}; staff's list of subscriptions and its CSV export.
#include "billing/account_queries.h"
#include "billing/subscriptions/subscription_service.h"
#include "http/router.h"

namespace storefront::billing {

void registerSubscriptionRoutes(http::Router& router, SubscriptionService& subscriptions, AccountQueries& account);

// A subscription as the staff list shows it.
nlohmann::json toJson(const AdminSubscription& subscription);

} // namespace storefront::billing
