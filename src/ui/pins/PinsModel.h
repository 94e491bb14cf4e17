#pragma once

#include "compaction/Pin.h"

#include <QAbstractTableModel>
#include <QList>

namespace wl {

// The session's pins (docs/COMPACTION.md section 12), one row each, oldest first: what is pinned
// and, in its own column, the one-click Unpin.
class PinsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { PinColumn, UnpinColumn, ColumnCount };
    enum Role {
        PinIdRole = Qt::UserRole + 1, // qint64
        MessageIdRole,                // qint64, 0 for a note
        KindRole,                     // int, Pin::Kind
        TextRole,                     // QString, the pinned text in full
    };

    explicit PinsModel(QObject *parent = nullptr);

    void setPins(const QList<Pin> &pins);
    const QList<Pin> &pins() const { return m_pins; }
    // The row of pin `pinId`, -1 when it is not listed.
    int rowOf(qint64 pinId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "Message 12", "Selection of message 12", "Note", with ", proposed by the assistant".
    static QString describe(const Pin &pin);

private:
    QList<Pin> m_pins;
};

} // namespace wl
