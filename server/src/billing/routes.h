#pragma once
// HTTP for billing: the /functions/v1 calls the company's apps make, the signed-in customer's
// /api/v1/account reads, the Stripe webhook, and the local test provider's pages.
#include "billing/checkout_service.h"
#include "billing/event_processor.h"
#include "billing/order_admin.h"
#include "billing/account_queries.h"
#include "billing/provider/local_provider.h"
#include "http/router.h"

#include <string>
#include <vector>

namespace storefront::billing {

void registerRoutes(http::Router& router, CheckoutService& checkout, AccountQueries& account, OrderAdmin& orders);

// POST /webhooks/stripe. `secrets`: every webhook signing secret currently valid (rotation).
void registerStripeWebhook(http::Router& router, EventProcessor& events, std::vector<std::string> secrets);

// /pay/test/...: the hosted checkout and billing portal of the local provider.
void registerLocalPages(http::Router& router, LocalProvider& provider, std::string siteName);

} // namespace storefront::billing
