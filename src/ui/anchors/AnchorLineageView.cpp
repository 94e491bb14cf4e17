#include "AnchorLineageView.h"

#include "AnchorItemsModel.h"
#include "WordDiff.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <utility>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QString compactionName(const QList<AnchorSnapshot> &snapshots, int step)
{
    const AnchorSnapshot &s = snapshots.at(step);
    return AnchorLineageView::tr("compaction #%1 (%2 tier, before request %3)")
        .arg(step + 1).arg(tierDisplayName(s.tier)).arg(s.requestIndex);
}

QString listItem(const QString &html)
{
    return u"<li style=\"margin-bottom: 4px\">"_s + html + u"</li>"_s;
}

} // namespace

AnchorLineageView::AnchorLineageView(AnchorItemsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_onlyDropped(new QCheckBox(tr("Only dropped items"), this))
    , m_summary(new QLabel(this))
    , m_tree(new QTreeView(this))
    , m_lineage(new QTextBrowser(this))
{
    setObjectName(u"AnchorLineageView"_s);
    m_onlyDropped->setObjectName(u"OnlyDroppedItems"_s);
    m_onlyDropped->setToolTip(tr("List only the items a compaction dropped from its anchor"));
    m_summary->setObjectName(u"AnchorItemsSummary"_s);
    m_tree->setObjectName(u"AnchorItemsTree"_s);
    m_tree->setModel(model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(false);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->header()->setDefaultSectionSize(72);
    m_tree->header()->setStretchLastSection(false);
    m_lineage->setObjectName(u"AnchorLineage"_s);
    m_lineage->setOpenLinks(false);

    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_onlyDropped);
    filterRow->addStretch(1);
    filterRow->addWidget(m_summary);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(u"AnchorItemsSplitter"_s);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_lineage);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filterRow);
    layout->addWidget(splitter, 1);

    connect(m_onlyDropped, &QCheckBox::toggled, model, &AnchorItemsModel::setOnlyDropped);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &AnchorLineageView::onCurrentChanged);
    connect(model, &QAbstractItemModel::modelReset, this, &AnchorLineageView::onModelReset);
    connect(m_lineage, &QTextBrowser::anchorClicked, this, &AnchorLineageView::onLinkClicked);
    onModelReset();
}

void AnchorLineageView::onModelReset()
{
    m_tree->expandAll();
    if (!std::exchange(m_itemColumnSized, true))
        m_tree->header()->resizeSection(0, 420); // once: a refresh keeps what the user chose
    updateSummary();
    // The item shown before (a refresh or the filter reset the model), else the one dropped last,
    // so the pane is not empty; choosing it is not the user's choice: no selection is reported.
    QModelIndex shown = m_model->indexOfItem(m_shownItem, m_shownColumn);
    if (!shown.isValid()) {
        int latest = -1;
        const QList<LineageItem> &items = m_model->items();
        for (qsizetype i = 0; i < items.size(); ++i)
            if (items.at(i).isDropped() && (latest < 0 || items.at(i).droppedAt >= items.at(latest).droppedAt))
                latest = int(i);
        shown = m_model->indexOfItem(latest);
    }
    if (!shown.isValid()) {
        onCurrentChanged();
        return;
    }
    m_quiet = true;
    m_tree->setCurrentIndex(shown);
    m_quiet = false;
    m_tree->scrollTo(shown);
}

void AnchorLineageView::showRecord(const QString &recordId)
{
    const QList<AnchorSnapshot> &snapshots = m_model->snapshots();
    for (qsizetype i = 0; i < snapshots.size(); ++i) {
        if (snapshots.at(i).recordId != recordId)
            continue;
        const QModelIndex current = m_tree->currentIndex();
        m_tree->scrollTo(current.isValid() ? current.siblingAtColumn(int(i) + 1) : m_model->index(0, int(i) + 1));
        return;
    }
}

QString AnchorLineageView::lineageHtml() const
{
    return m_lineage->toHtml();
}

QString AnchorLineageView::lineageHtml(const LineageItem &item, const QList<AnchorSnapshot> &snapshots)
{
    if (item.fates.size() != snapshots.size() || item.addedAt < 0)
        return {};
    QString html = u"<p><b>"_s + anchorHeader(item.kind).toHtmlEscaped() + u":</b> "_s
        + item.latestText().toHtmlEscaped() + u"</p><ul>"_s;
    QString added = tr("Added by %1.").arg(compactionName(snapshots, item.addedAt)).toHtmlEscaped();
    if (item.sourceMessageId > 0)
        added += u' ' + tr("From %1.").toHtmlEscaped().arg(u"<a href=\"message:%1\">%2</a>"_s.arg(item.sourceMessageId)
                                                              .arg(tr("message #%1").arg(item.sourceMessageId).toHtmlEscaped()));
    else
        added += u' ' + tr("No message of the summarised range names it.").toHtmlEscaped();
    html += listItem(added);
    int keptSince = -1;
    auto flushKept = [&](int end) {
        if (keptSince < 0)
            return;
        html += listItem((keptSince == end - 1 ? tr("Kept by #%1.").arg(keptSince + 1)
                                               : tr("Kept by #%1 to #%2.").arg(keptSince + 1).arg(end))
                             .toHtmlEscaped());
        keptSince = -1;
    };
    for (int step = item.addedAt + 1; step < item.fates.size(); ++step) {
        const ItemFate fate = item.fates.at(step);
        if (fate == ItemFate::Kept) {
            if (keptSince < 0)
                keptSince = step;
            continue;
        }
        flushKept(step);
        if (fate == ItemFate::Reworded) {
            html += listItem(tr("Reworded by %1:").arg(compactionName(snapshots, step)).toHtmlEscaped()
                             + diffToHtml(wordDiff(item.texts.at(step - 1), item.texts.at(step))));
        } else if (fate == ItemFate::Dropped) {
            html += listItem(u"<b>"_s + tr("Dropped by %1.").arg(compactionName(snapshots, step)).toHtmlEscaped() + u"</b>"_s);
            break;
        }
    }
    flushKept(int(item.fates.size()));
    if (!item.isDropped())
        html += listItem(tr("Still in the latest anchors.").toHtmlEscaped());
    return html + u"</ul>"_s;
}

void AnchorLineageView::updateSummary()
{
    const QList<LineageItem> &items = m_model->items();
    const auto dropped = std::count_if(items.cbegin(), items.cend(), [](const LineageItem &i) { return i.isDropped(); });
    m_summary->setText(tr("Items: %1 over %2 compactions, %3 dropped").arg(items.size()).arg(m_model->snapshots().size()).arg(dropped));
}

void AnchorLineageView::onCurrentChanged()
{
    const QModelIndex current = m_tree->currentIndex();
    const int item = current.isValid() ? current.data(AnchorItemsModel::ItemRole).toInt() : -1;
    m_shownItem = item;
    m_shownColumn = current.isValid() ? current.column() : 0;
    if (item < 0) {
        m_lineage->setHtml(m_model->items().isEmpty()
            ? tr("No compaction has written anchor items in this session yet.").toHtmlEscaped()
            : tr("Select an item to follow it through the compactions.").toHtmlEscaped());
        return;
    }
    const LineageItem &it = m_model->items().at(item);
    m_lineage->setHtml(lineageHtml(it, m_model->snapshots()));
    // The compaction of the chosen cell; for the text, the one that added the item.
    QString recordId;
    if (current.column() > 0 && current.data(AnchorItemsModel::FateRole).toInt() != int(ItemFate::Absent))
        recordId = current.data(AnchorItemsModel::RecordIdRole).toString();
    else
        recordId = m_model->snapshots().at(it.addedAt).recordId;
    if (!m_quiet)
        Q_EMIT recordSelected(recordId);
}

void AnchorLineageView::onLinkClicked(const QUrl &url)
{
    if (url.scheme() != u"message")
        return;
    bool ok = false;
    const qint64 id = url.path().toLongLong(&ok);
    if (ok && id > 0)
        Q_EMIT messageSelected(id);
}

} // namespace wl
