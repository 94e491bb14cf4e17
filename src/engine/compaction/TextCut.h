#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

#include <deque>

namespace wl {

// How the extractive summariser cuts and shapes the text it quotes. Every cut is on a character
// boundary: no half surrogate pair, no combining mark left without its base.
namespace TextCut {

// The largest position <= max where `text` can be cut (text.size() when it is not longer than max).
qsizetype safeCutPosition(QStringView text, qsizetype max);

// `text` when it fits `max` characters, else its start, trimmed, and "…", `max` characters at most.
QString cut(QStringView text, qsizetype max);
// cut() of a string that is usually short enough already: no copy then.
void cutInPlace(QString &text, qsizetype max);

// The first `chars` characters of `text` as one line: whitespace runs collapsed, leading
// heading/quote markers dropped.
QString flattened(QStringView text, qsizetype chars);

// True when oneLine(text, max) is `text` itself: most paths and commands are one short line
// already, with nothing to collapse, strip or cut.
bool isOneLineAlready(QStringView text, qsizetype max);
// One line: whitespace runs collapsed, leading heading/quote markers dropped, cut to `max`.
// Costs the same whatever the size of `text`.
QString oneLine(QStringView text, qsizetype max);
// oneLine(), as a view of `text` itself when nothing changes, else of a string kept in `keep`.
QStringView oneLineView(QStringView text, qsizetype max, std::deque<QString> *keep);

// True when `item` starts like a list item already ("- ", "* ", "• ", "12. ", "3) ").
bool isListItem(QStringView item);
// `items` as lines, "- " before those that are not list items yet, dropping the oldest ones until
// the block fits `max` (the last one is cut when it alone is too long).
QString bulletBlock(const QStringList &items, qsizetype max);
// "a, b, c (+4 more)": at most `max` items.
QString listWithMore(const QStringList &items, int max);

// Appends `item` unless it is empty or in `list` already.
void appendUnique(QStringList *list, const QString &item);

} // namespace TextCut

} // namespace wl
