#include "catalog/admin_service.h"

#include "catalog/product_json.h"
#include "http/api_error.h"

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::catalog {

namespace {

ApiError productNotFound() { return ApiError::notFound("product_not_found", "No such product."); }
ApiError planNotFound() { return ApiError::notFound("plan_not_found", "No such pricing plan."); }

} // namespace

void CatalogAdmin::checkSlugFree(db::Tx& tx, const std::string& slug, const std::string& exceptId) {
    if (!products_.slugTaken(tx, slug, exceptId)) return;
    const std::string message = "The slug '" + slug + "' is already used by another product.";
    ApiError e(ErrorKind::Conflict, "slug_taken", message);
    e.fields = {{"slug", message}};
    throw e;
}

Product CatalogAdmin::createProduct(const audit::Actor& actor, Product input) {
    Product created;
    db_.write([&](db::Tx& tx) {
        checkSlugFree(tx, input.slug, "");
        input.id = db::newId();
        products_.insert(tx, input);
        created = *products_.findById(tx, input.id);
        audit::record(tx, actor, {"product.created", "product", created.id, nullptr, toJson(created, true)});
        tx.notify(db::topic::kCatalog);
    });
    return created;
}

Product CatalogAdmin::updateProduct(const audit::Actor& actor, const std::string& id,
                                    const std::function<Product(const Product&)>& change) {
    Product updated;
    db_.write([&](db::Tx& tx) {
        auto before = products_.findById(tx, id);
        if (!before) throw productNotFound();
        Product next = change(*before);
        next.id = before->id;
        checkSlugFree(tx, next.slug, next.id);
        products_.update(tx, next);
        updated = *products_.findById(tx, id);
        audit::record(tx, actor, {"product.updated", "product", id, toJson(*before, true), toJson(updated, true)});
        tx.notify(db::topic::kCatalog);
    });
    return updated;
}

void CatalogAdmin::deleteProduct(const audit::Actor& actor, const std::string& id) {
    db_.write([&](db::Tx& tx) {
        auto before = products_.findById(tx, id);
        if (!before) throw productNotFound();
        if (products_.inUse(tx, id))
            throw ApiError(ErrorKind::Conflict, "product_in_use",
                           "This product has orders, subscriptions or licences and cannot be deleted. Deactivate it instead.");
        products_.remove(tx, id);
        audit::record(tx, actor, {"product.deleted", "product", id, toJson(*before, true), nullptr});
        tx.notify(db::topic::kCatalog);
    });
}

PricingPlan CatalogAdmin::createPlan(const audit::Actor& actor, const std::string& productId, PricingPlan input) {
    PricingPlan created;
    db_.write([&](db::Tx& tx) {
        if (!products_.findById(tx, productId)) throw productNotFound();
        input.id = db::newId();
        input.productId = productId;
        products_.insertPlan(tx, input);
        created = *products_.findPlan(tx, input.id);
        audit::record(tx, actor, {"plan.created", "pricing_plan", created.id, nullptr, staffJson(created)});
        tx.notify(db::topic::kCatalog);
    });
    return created;
}

PricingPlan CatalogAdmin::updatePlan(const audit::Actor& actor, const std::string& planId,
                                     const std::function<PricingPlan(const PricingPlan&)>& change) {
    PricingPlan updated;
    db_.write([&](db::Tx& tx) {
        auto before = products_.findPlan(tx, planId);
        if (!before) throw planNotFound();
        PricingPlan next = change(*before);
        next.id = before->id;
        next.productId = before->productId;
        products_.updatePlan(tx, next);
        updated = *products_.findPlan(tx, planId);
        audit::record(tx, actor, {"plan.updated", "pricing_plan", planId, staffJson(*before), staffJson(updated)});
        tx.notify(db::topic::kCatalog);
    });
    return updated;
}

void CatalogAdmin::deletePlan(const audit::Actor& actor, const std::string& planId) {
    db_.write([&](db::Tx& tx) {
        auto before = products_.findPlan(tx, planId);
        if (!before) throw planNotFound();
        if (products_.planInUse(tx, planId))
            throw ApiError(ErrorKind::Conflict, "plan_in_use", "Subscriptions use this plan, so it cannot be deleted.");
        products_.removePlan(tx, planId);
        audit::record(tx, actor, {"plan.deleted", "pricing_plan", planId, staffJson(*before), nullptr});
        tx.notify(db::topic::kCatalog);
    });
}

Image CatalogAdmin::uploadImage(const audit::Actor& actor, std::string_view bytes) {
    // Decoded, checked and re-encoded before the transaction: nothing is stored for a bad file.
    PreparedImage prepared;
    try {
        prepared = prepareImage(bytes, maxImagePixels_);
    } catch (const ImageRejected& rejected) {
        ApiError e(ErrorKind::Validation, rejected.code, rejected.what());
        e.fields = {{"image", rejected.what()}};
        throw e;
    }
    Image stored;
    db_.write([&](db::Tx& tx) {
        stored = images_.store(tx, prepared);
        audit::record(tx, actor,
                      {"image.uploaded", "image", stored.name, nullptr,
                       {{"url", stored.url},
                        {"name", stored.name},
                        {"folder", stored.folder},
                        {"bytes", bytes.size()},
                        {"stored_bytes", prepared.full.bytes.size()},
                        {"width", stored.width},
                        {"height", stored.height}}});
    });
    return stored;
}

} // namespace storefront::catalog
