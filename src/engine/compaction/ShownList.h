#pragma once

#include <QString>
#include <QStringView>
#include <QVarLengthArray>

namespace wl {

// The items of one list in a line of an extractive summary ("edited a, b (failed), c (+2 more)"):
// each shown as its text followed by a suffix, and kept once by what is shown. Items are views: the
// strings they point into must outlive the list.
class ShownList
{
public:
    // Adds `text` + `suffix` unless both are empty or the list shows the same already.
    void append(QStringView text, QStringView suffix = {});

    bool isEmpty() const { return m_items.isEmpty(); }
    qsizetype size() const { return m_items.size(); }

    // "a, b, c (+4 more)" appended to `out`: the first `max` items, each after `prefix`. The pieces
    // are short and many: `out` grows once and they are copied in.
    void appendTo(QString &out, int max, QStringView prefix = {}) const;

private:
    struct Shown
    {
        QStringView text;
        QStringView suffix;
    };
    QVarLengthArray<Shown, 8> m_items;
};

} // namespace wl
