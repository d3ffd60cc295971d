#pragma once
// The audit area: recording (audit.h, used by every area inside its transactions) and the staff
// page's reads.
#include "audit/audit_repository.h"
#include "common/module.h"

namespace storefront::audit {

class Module : public storefront::Module {
public:
    explicit Module(db::Database& db) : log_(db) {}
    std::string_view name() const override { return "audit"; }
    void routes(http::Router& router) override;

private:
    AuditRepository log_;
};

} // namespace storefront::audit
