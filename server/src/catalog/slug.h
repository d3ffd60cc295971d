#pragma once
// Product slugs: the URL segment in /product/{slug} and /checkout/{slug}.
#include <cstddef>
#include <string>
#include <string_view>

namespace storefront::catalog {

inline constexpr std::size_t kMaxSlugLength = 100;

// The product form's rule (spec section 5): lower case, whitespace runs become '-'. Leading and
// trailing whitespace is trimmed first (so " My Product " is "my-product", not "-my-product-").
// Whitespace is what JavaScript's \s matches (ASCII whitespace, U+00A0, U+FEFF and the Unicode space
// separators). Only ASCII letters are lower-cased; the result is not necessarily valid (check
// isValidSlug): other characters are left for validation to reject rather than silently changed.
std::string normalizeSlug(std::string_view input);

// 1-100 characters of [a-z0-9-], not starting or ending with '-'. Routes use it to answer 404 early.
bool isValidSlug(std::string_view slug);

} // namespace storefront::catalog
