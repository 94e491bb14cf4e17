#pragma once

#include "AnchorLineage.h"

#include <QList>

namespace wl {

struct Message;

// Sets each item's sourceMessageId: among the history messages up to the end of the range the
// compaction that added it summarised (coversUpToMessageId; all when 0), the first that
//  - for an item naming files (a token with an extension such as "server.go", or the last part of
//    a path; without those, a token with a "/"): names one in a tool call's arguments (the call
//    that wrote, read or ran it), else anywhere;
//  - otherwise: holds the item's text verbatim (case folded, spaces collapsed, surrounding
//    punctuation left out), else, for an item of at least kMinFuzzySourceTokens tokens, at least
//    kSourceContainment of its tokens (a summariser's rewording).
// `history` in ascending id order. Messages are tokenised once each, at most kMaxSourceChars of each.
namespace lineage {
inline constexpr double kSourceContainment = 0.6;
inline constexpr qsizetype kMinFuzzySourceTokens = 4;
inline constexpr qsizetype kMaxSourceChars = 20000;
} // namespace lineage
void findItemSources(QList<LineageItem> *items, const QList<LineageStep> &steps, const QList<Message> &history);

} // namespace wl
