#pragma once

#include <QList>

#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>

class QByteArray;
class QJsonArray;
class QString;

namespace wl {

// The message ids a request's view held, as closed runs [first, last] of consecutive ids: a
// view is mostly "everything from here to there", so a session of n requests costs O(n) runs
// where a list of ids costs n²/2 ids. Ids ascend strictly and are >= 0 (history ids are row ids,
// the export's are 0-based positions); appending one that does not is refused, so every value
// is well formed and contains() can bisect.
class ViewIds
{
public:
    struct Range
    {
        qint64 first = 0;
        qint64 last = 0; // inclusive, >= first
        friend bool operator==(const Range &, const Range &) = default;
    };

    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = qint64;
        using difference_type = qsizetype;
        using pointer = const qint64 *;
        using reference = qint64;

        const_iterator() = default;
        qint64 operator*() const { return m_value; }
        const_iterator &operator++();
        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++*this;
            return before;
        }
        friend bool operator==(const const_iterator &a, const const_iterator &b)
        {
            return a.m_range == b.m_range && (a.m_range == a.m_end || a.m_value == b.m_value);
        }

    private:
        friend class ViewIds;
        const_iterator(const Range *range, const Range *end)
            : m_range(range), m_end(end), m_value(range != end ? range->first : 0) {}
        const Range *m_range = nullptr;
        const Range *m_end = nullptr;
        qint64 m_value = 0;
    };

    ViewIds() = default;
    // For literals (tests, fixed views): ids that do not ascend are dropped with a warning.
    ViewIds(std::initializer_list<qint64> ids);
    // The run [first, last]; empty when last < first or first < 0.
    static ViewIds range(qint64 first, qint64 last);
    // From a list in view order; nothing, with `error`, when the ids do not strictly ascend or
    // one is negative.
    static std::optional<ViewIds> fromList(const QList<qint64> &ids, QString *error = nullptr);

    // Each append keeps the ids strictly ascending: false (and nothing changed) when the new ids
    // are negative, not above last(), or (a range) reversed.
    [[nodiscard]] bool append(qint64 id);
    [[nodiscard]] bool appendRange(qint64 first, qint64 last);
    [[nodiscard]] bool append(const ViewIds &more);

    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    qint64 first() const { return m_ranges.isEmpty() ? 0 : m_ranges.constFirst().first; } // 0 when empty
    qint64 last() const { return m_ranges.isEmpty() ? 0 : m_ranges.constLast().last; }    // 0 when empty
    bool contains(qint64 id) const;
    const QList<Range> &ranges() const { return m_ranges; }
    QList<qint64> toList() const; // the whole list: O(size()), for small views and tests
    // The positions in `ascendingIds` (strictly ascending) of the view's ids it holds; ids it
    // does not hold are left out. O(runs x log n), whatever the runs span.
    ViewIds positionsIn(const QList<qint64> &ascendingIds) const;
    void clear();

    const_iterator begin() const { return const_iterator(m_ranges.constData(), m_ranges.constData() + m_ranges.size()); }
    const_iterator end() const { return const_iterator(m_ranges.constData() + m_ranges.size(), m_ranges.constData() + m_ranges.size()); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    // The stored and exported form: [1, [5, 9], 12] means 1, 5, 6, 7, 8, 9, 12 (a run of three
    // or more becomes a pair). toJsonText() is the same as compact JSON text, written directly.
    QJsonArray toJson() const;
    QByteArray toJsonText() const;
    // Reads that form from a database row or a file, where anything may be: nothing, with a
    // clear `error`, unless it holds only whole numbers and [first, last] pairs (first <= last),
    // ascending without overlap, each in [0, maxId]. Never allocates more than the text's runs.
    static std::optional<ViewIds> fromJson(const QJsonArray &array, QString *error, qint64 maxId = kMaxId);
    static std::optional<ViewIds> fromJsonText(const QByteArray &text, QString *error, qint64 maxId = kMaxId);

    static constexpr qint64 kMaxId = std::numeric_limits<qint64>::max();

    friend bool operator==(const ViewIds &, const ViewIds &) = default;

private:
    QList<Range> m_ranges;
    qsizetype m_size = 0;
};

} // namespace wl
