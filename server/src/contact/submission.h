#pragma once
#include <optional>
#include <string>

namespace storefront::contact {

// A validated Contact Sales enquiry.
struct ContactSubmission {
    std::string name;
    std::string email;
    std::optional<std::string> company;
    std::optional<std::string> phone;
    std::string message;
};

} // namespace storefront::contact
