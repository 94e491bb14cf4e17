#pragma once

#include "compaction/OffloadStore.h"
#include "offloads/OffloadSource.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>

namespace wl {

// One line of the Offloads dock: an offloaded result, what produced it, when it was offloaded, how often
// the agent read it back.
struct OffloadRow
{
    OffloadEntry entry;
    OffloadSource source;
    QDateTime time;
    int readBacks = 0;
    QString absolutePath;

    friend bool operator==(const OffloadRow &, const OffloadRow &) = default;
};

// The offloaded results of a session, one row each, keyed by call id. Sorting is the view's
// business (through a QSortFilterProxyModel on SortRole).
class OffloadListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ToolColumn, SourceColumn, CallIdColumn, GateColumn, SizeColumn, LinesColumn, TimeColumn, ReadBacksColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // the raw value of the cell (bytes, lines, time...) for sorting
        CallIdRole,
        PathRole,                    // absolute path of the file
        MessageIdRole,
        SourceFileRole,              // the file the call names (OffloadSource::fileName), for the highlighting
        TitleRole,                   // "tool · what produced it", for the viewer's title
    };

    explicit OffloadListModel(QObject *parent = nullptr);

    // Rows whose call id is already here are updated in place (selection survives), missing ones removed,
    // new ones appended; a set with nothing in common with the current one resets the model.
    void setRows(const QList<OffloadRow> &rows);
    void addRow(const OffloadRow &row);      // appends, or updates the row with the same call id
    void clear();
    // New read-back counts by call id; rows not named keep theirs.
    void updateReadBacks(const QHash<QString, int> &countsByCallId);

    const QList<OffloadRow> &rows() const { return m_rows; }
    int rowOfCallId(const QString &callId) const;  // -1 when absent

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    void reindex();
    static QVariant displayValue(const OffloadRow &row, int column);
    static QString title(const OffloadRow &row);

    QList<OffloadRow> m_rows;
    QHash<QString, int> m_rowOfCallId;
};

} // namespace wl
