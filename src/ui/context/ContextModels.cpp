#include "ContextModels.h"

#include "compaction/TokenEstimate.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

QString contextSnippet(const QString &text, int maxChars)
{
    QString head = text.left(maxChars * 2).simplified();
    if (head.size() > maxChars || text.size() > maxChars * 2)
        head = head.left(maxChars - 3) + u"..."_s;
    return head;
}

static QString callsText(const Message &m)
{
    QStringList names;
    for (const ToolCall &c : m.toolCalls)
        names << c.name + u'(' + contextSnippet(c.arguments, 60) + u')';
    return names.join(u", "_s);
}

static QString fullText(const Message &m)
{
    QString text = m.content;
    for (const ToolCall &c : m.toolCalls)
        text += u"\n[tool_call %1(%2)]: %3"_s.arg(c.name, c.id, c.arguments);
    return text;
}

// ---------------------------------------------------------------------------

ContextViewModel::ContextViewModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int ContextViewModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_view.size();
}

int ContextViewModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

static QString kindLabel(ViewItem::Kind kind)
{
    switch (kind) {
    case ViewItem::Kind::System: return ContextViewModel::tr("system prompt");
    case ViewItem::Kind::Checkpoint: return ContextViewModel::tr("checkpoint");
    case ViewItem::Kind::Original: return ContextViewModel::tr("verbatim");
    case ViewItem::Kind::Placeholder: return ContextViewModel::tr("offload placeholder");
    case ViewItem::Kind::Stub: return ContextViewModel::tr("stub (result compacted away)");
    case ViewItem::Kind::Pinned: return ContextViewModel::tr("pinned");
    }
    return {};
}

QVariant ContextViewModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ViewItem &item = m_view.items().at(index.row());
    const Message &m = m_messages.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IndexColumn: return index.row();
        case KindColumn:
            if (item.kind == ViewItem::Kind::Checkpoint)
                return tr("checkpoint (messages %1–%2)").arg(item.coversFrom).arg(item.coversTo);
            return kindLabel(item.kind);
        case RoleColumn: return m.isToolResult() ? tr("tool result") : roleName(m.role);
        case TokensColumn: return QLocale().toString(TokenEstimate::tokensForBytes(item.bytes));
        case ContentColumn: return m.hasToolCalls() && m.content.isEmpty() ? callsText(m) : contextSnippet(m.content);
        }
        break;
    case Qt::BackgroundRole:
        switch (item.kind) {
        case ViewItem::Kind::Checkpoint: return QBrush(QColor(0x31, 0x82, 0xce, 55));
        case ViewItem::Kind::Placeholder: return QBrush(QColor(0xd6, 0x9e, 0x2e, 55));
        case ViewItem::Kind::Stub: return QBrush(QColor(0xe5, 0x3e, 0x3e, 45));
        case ViewItem::Kind::Pinned: return QBrush(QColor(0x38, 0xa1, 0x69, 55));
        default: return {};
        }
    case Qt::ToolTipRole:
        return contextSnippet(fullText(m), 600);
    case KindRole: return int(item.kind);
    case CoversFromRole: return item.coversFrom;
    case CoversToRole: return item.coversTo;
    case FullTextRole: return fullText(m);
    }
    return {};
}

QVariant ContextViewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IndexColumn: return tr("#");
    case KindColumn: return tr("What it is");
    case RoleColumn: return tr("Role");
    case TokensColumn: return tr("Tokens");
    case ContentColumn: return tr("Content");
    }
    return {};
}

void ContextViewModel::setSnapshot(const ContextSnapshot &snapshot)
{
    beginResetModel();
    m_snapshot = snapshot;
    if (snapshot.requestIndex < 0) {
        m_view = ContextView();
        m_messages.clear();
    } else {
        m_view = ContextView::build(snapshot.systemPrompt, snapshot.history, snapshot.overlays, snapshot.historyEnd);
        m_messages = m_view.messages(snapshot.history, snapshot.overlays);
    }
    endResetModel();
}

// ---------------------------------------------------------------------------

ContextHistoryModel::ContextHistoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int ContextHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_snapshot.requestIndex < 0 ? 0 : int(m_snapshot.historyEnd);
}

int ContextHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

ContextHistoryModel::Status ContextHistoryModel::statusAt(int row) const
{
    const Message &m = m_snapshot.history.at(row);
    if (m.id <= m_coversUpTo)
        return Summarized;
    if (m_snapshot.overlays.offloads.contains(m.id))
        return Offloaded;
    return Sent;
}

QVariant ContextHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Message &m = m_snapshot.history.at(index.row());
    const Status status = statusAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn: return m.id;
        case RoleColumn: return m.isToolResult() ? tr("tool result") : roleName(m.role);
        case TokensColumn: return QLocale().toString(TokenEstimate::tokensForBytes(m.byteCount()));
        case StatusColumn:
            switch (status) {
            case Sent: return tr("sent");
            case Offloaded: return tr("offloaded");
            case Summarized: return tr("summarised");
            }
            break;
        case ContentColumn: return m.hasToolCalls() && m.content.isEmpty() ? callsText(m) : contextSnippet(m.content);
        }
        break;
    case Qt::BackgroundRole:
        // Replaced content stands out; what was sent verbatim stays plain.
        if (status == Summarized)
            return QBrush(QColor(0x31, 0x82, 0xce, 40));
        if (status == Offloaded)
            return QBrush(QColor(0xd6, 0x9e, 0x2e, 55));
        return {};
    case Qt::ToolTipRole: return contextSnippet(fullText(m), 600);
    case StatusRole: return int(status);
    case MessageIdRole: return m.id;
    case FullTextRole: return fullText(m);
    }
    return {};
}

QVariant ContextHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn: return tr("Id");
    case RoleColumn: return tr("Role");
    case TokensColumn: return tr("Tokens");
    case StatusColumn: return tr("In the request");
    case ContentColumn: return tr("Content");
    }
    return {};
}

void ContextHistoryModel::setSnapshot(const ContextSnapshot &snapshot)
{
    beginResetModel();
    m_snapshot = snapshot;
    m_snapshot.historyEnd = std::clamp<qsizetype>(snapshot.historyEnd, 0, snapshot.history.size());
    m_coversUpTo = 0;
    if (!snapshot.overlays.checkpoints.isEmpty())
        m_coversUpTo = snapshot.overlays.checkpoints.constLast().coversUpToMessageId;
    endResetModel();
}

int ContextHistoryModel::rowForMessageId(qint64 id) const
{
    const auto begin = m_snapshot.history.cbegin();
    const auto end = begin + m_snapshot.historyEnd;
    const auto it = std::lower_bound(begin, end, id, [](const Message &m, qint64 value) { return m.id < value; });
    return it != end && it->id == id ? int(it - begin) : -1;
}

} // namespace wl
