#include "PinsModel.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// One line of a pin's text for the list: its first line, cut at 160 characters.
QString firstLine(const QString &text)
{
    QString line = text.trimmed().section(u'\n', 0, 0);
    if (line.size() > 160)
        line = line.left(159) + u'…';
    return line;
}
} // namespace

PinsModel::PinsModel(QObject *parent) : QAbstractTableModel(parent) {}

void PinsModel::setPins(const QList<Pin> &pins)
{
    if (pins == m_pins)
        return;
    beginResetModel();
    m_pins = pins;
    endResetModel();
}

int PinsModel::rowOf(qint64 pinId) const
{
    for (int i = 0; i < m_pins.size(); ++i) {
        if (m_pins[i].id == pinId)
            return i;
    }
    return -1;
}

int PinsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_pins.size());
}

int PinsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PinsModel::describe(const Pin &pin)
{
    QString what;
    switch (pin.kind) {
    case Pin::Kind::Message: what = tr("Message %1").arg(pin.messageId); break;
    case Pin::Kind::Selection: what = tr("Selection of message %1").arg(pin.messageId); break;
    case Pin::Kind::Note: what = tr("Note"); break;
    }
    if (pin.source == Pin::Source::Model)
        what = tr("%1, proposed by the assistant").arg(what);
    return what;
}

QVariant PinsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Pin &pin = m_pins.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == UnpinColumn)
            return tr("Unpin");
        return tr("%1: %2").arg(describe(pin), firstLine(pin.text));
    case Qt::ToolTipRole:
        if (index.column() == UnpinColumn)
            return tr("Unpin: the next request goes without it");
        if (pin.reason.isEmpty())
            return pin.text;
        return tr("%1\n\nWhy: %2").arg(pin.text, pin.reason);
    case Qt::TextAlignmentRole:
        if (index.column() == UnpinColumn)
            return int(Qt::AlignCenter);
        return {};
    case PinIdRole: return pin.id;
    case MessageIdRole: return pin.messageId;
    case KindRole: return int(pin.kind);
    case TextRole: return pin.text;
    default: return {};
    }
}

QVariant PinsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PinColumn: return tr("Pinned");
    case UnpinColumn: return QString();
    default: return {};
    }
}

} // namespace wl
