#pragma once

#include <QString>

#include <optional>

namespace wl {

// Context windows and output limits of common models, for when a profile
// does not state them. Sources are listed in ModelTable.cpp.
namespace ModelTable {

struct Entry
{
    qint64 contextWindow = 0;
    int maxOutputTokens = 0;
};

// Matches the longest known name that the model id starts with, after
// dropping a router prefix ("openai/gpt-4o" -> "gpt-4o") and comparing
// case-insensitively: "gpt-4o-2024-08-06" is gpt-4o, "llama3.1:8b" is
// llama3.1, "claude-sonnet-4-5-20250929" is claude-sonnet-4-5.
std::optional<Entry> lookup(QStringView model);

} // namespace ModelTable
} // namespace wl
