#include "ContextPanel.h"

#include "ContextModels.h"
#include "common/CompositionBar.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QCoreApplication>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
QTableView *makeTable(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->setTabKeyNavigation(false); // Tab goes on to the next control; arrow keys move between cells
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

QWidget *titled(const QString &title, QWidget *child, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(title, box);
    label->setStyleSheet(u"font-weight: bold;"_s);
    layout->addWidget(label);
    layout->addWidget(child, 1);
    return box;
}
} // namespace

ContextPanel::ContextPanel(QWidget *parent)
    : QWidget(parent)
    , m_viewModel(new ContextViewModel(this))
    , m_historyModel(new ContextHistoryModel(this))
    , m_summary(new QLabel(this))
    , m_composition(new CompositionBar(this))
    , m_detail(new QPlainTextEdit(this))
{
    setObjectName(u"ContextPanel"_s);
    m_viewTable = makeTable(m_viewModel, u"ContextViewTable"_s, this);
    m_historyTable = makeTable(m_historyModel, u"ContextHistoryTable"_s, this);
    m_detail->setObjectName(u"ContextDetail"_s);
    m_detail->setReadOnly(true);
    m_detail->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_summary->setWordWrap(true);

    auto *tables = new QSplitter(Qt::Horizontal, this);
    tables->setObjectName(u"ContextTablesSplitter"_s);
    tables->addWidget(titled(tr("Sent to the model"), m_viewTable, tables));
    tables->addWidget(titled(tr("Full history at that moment"), m_historyTable, tables));
    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->setObjectName(u"ContextSplitter"_s);
    vertical->addWidget(tables);
    vertical->addWidget(m_detail);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 1);
    // Tab in visual order: the two tables, then the detail below them (made first).
    setTabOrder({m_viewTable, m_historyTable, m_detail});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_composition);
    layout->addWidget(vertical, 1);

    connect(m_viewTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ContextPanel::onViewItemSelected);
    connect(m_historyTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ContextPanel::onHistoryItemSelected);
    clear();
}

namespace {
// Where a session's window comes from, in words (RecordedRequests::windowOf names it).
QString windowSourceText(const QString &source)
{
    if (source.isEmpty())
        return {};
    if (source == u"session policy")
        return QCoreApplication::translate("wl::ContextPanel", "The window is the session's policy's.");
    if (source == u"profile")
        return QCoreApplication::translate("wl::ContextPanel", "The window is the provider profile's.");
    if (source == u"default")
        return QCoreApplication::translate("wl::ContextPanel", "The window is the default: neither the transcript nor the model table names one.");
    if (const QString field = u"transcript: "_s; source.startsWith(field))
        return QCoreApplication::translate("wl::ContextPanel", "The window is the one the transcript records (%1).").arg(source.mid(field.size()));
    if (const QString table = u"model table: "_s; source.startsWith(table))
        return QCoreApplication::translate("wl::ContextPanel", "The window is the model table's for %1.").arg(source.mid(table.size()));
    return {};
}
} // namespace

void ContextPanel::clear()
{
    m_viewModel->setSnapshot({});
    m_historyModel->setSnapshot({});
    m_summary->setText(tr("Select a request on the timeline to see exactly what the model was sent."));
    m_composition->setComposition({});
    m_detail->clear();
}

void ContextPanel::showSnapshot(const ContextSnapshot &snapshot)
{
    m_viewModel->setSnapshot(snapshot);
    m_historyModel->setSnapshot(snapshot);
    // Every number from the request's one composition (the bar below, the gauge and the timeline
    // read the same), none summed here.
    const ViewComposition &c = snapshot.composition;
    const QLocale locale;
    QString text = tr("Request %1: %2 of the history's %3 messages sent, about %4 tokens to the provider.")
                       .arg(snapshot.requestIndex)
                       .arg(locale.toString(c.viewMessages()), locale.toString(c.historyMessages()), locale.toString(c.sent()));
    if (c.tokens(ViewComposition::Part::Reserved) > 0)
        text += u' ' + tr("With the reserved output, as the gauge and the timeline count it: %1 tokens.").arg(locale.toString(c.used()));
    if (c.window() > 0) {
        text += u' ' + tr("That is %1% of the %2-token window.").arg(qRound(c.ratio() * 100)).arg(locale.toString(c.window()));
        if (const QString from = windowSourceText(snapshot.windowSource); !from.isEmpty())
            text += u' ' + from;
    }
    if (const qint64 overhead = c.tokens(ViewComposition::Part::Overhead); overhead > 0)
        text += u' ' + tr("It includes an estimated %1 tokens of fixed overhead the transcript did not store "
                          "(the source agent's system prompt and tools), measured from the provider's reports.")
                           .arg(locale.toString(overhead));
    if (const qint64 calibration = c.tokens(ViewComposition::Part::Calibration); calibration > 0)
        text += u' ' + tr("The provider's tokenizer counted more than the estimate's bytes / 4 in this session: "
                          "%1 tokens are added for that, calibrated on the requests it reported.")
                           .arg(locale.toString(calibration));
    if (c.overflow() > 0)
        text += u' ' + tr("It is over the window by %1 tokens.").arg(locale.toString(c.overflow()));
    m_summary->setText(text);
    m_composition->setComposition(snapshot.composition);
    m_detail->clear();
    m_viewTable->resizeColumnsToContents();
    m_historyTable->resizeColumnsToContents();
}

QString ContextPanel::detailText() const
{
    return m_detail->toPlainText();
}

QString ContextPanel::summaryText() const
{
    return m_summary->text();
}

void ContextPanel::onViewItemSelected()
{
    const QModelIndex current = m_viewTable->currentIndex();
    if (!current.isValid())
        return;
    m_detail->setPlainText(current.data(ContextViewModel::FullTextRole).toString());
    if (m_linking)
        return;
    const qint64 from = current.data(ContextViewModel::CoversFromRole).toLongLong();
    const qint64 to = current.data(ContextViewModel::CoversToRole).toLongLong();
    const int first = m_historyModel->rowForMessageId(from);
    const int last = m_historyModel->rowForMessageId(to);
    QItemSelectionModel *selection = m_historyTable->selectionModel();
    m_linking = true;
    if (first < 0 || last < 0) {
        selection->clearSelection();
    } else {
        const QItemSelection range(m_historyModel->index(first, 0), m_historyModel->index(last, ContextHistoryModel::ColumnCount - 1));
        selection->select(range, QItemSelectionModel::ClearAndSelect);
        m_historyTable->scrollTo(m_historyModel->index(first, 0));
    }
    m_linking = false;
    if (!m_following && from > 0)
        Q_EMIT messageChosen(from);
}

void ContextPanel::onHistoryItemSelected()
{
    const QModelIndex current = m_historyTable->currentIndex();
    if (!current.isValid() || m_linking)
        return;
    m_detail->setPlainText(current.data(ContextHistoryModel::FullTextRole).toString());
    if (!m_following)
        Q_EMIT messageChosen(current.data(ContextHistoryModel::MessageIdRole).toLongLong());
}

void ContextPanel::selectMessage(qint64 messageId)
{
    const int row = messageId > 0 ? m_historyModel->rowForMessageId(messageId) : -1;
    QItemSelectionModel *selection = m_historyTable->selectionModel();
    const QScopedValueRollback<bool> following(m_following, true);
    if (row < 0) {
        selection->clearSelection();
        return;
    }
    if (selection->isRowSelected(row))
        return; // already shown, maybe within the range of a sent item
    const QModelIndex index = m_historyModel->index(row, 0);
    selection->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_historyTable->scrollTo(index);
}

} // namespace wl
