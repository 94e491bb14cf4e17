#include "PinsPanel.h"

#include "PinsModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

PinsPanel::PinsPanel(QWidget *parent)
    : QWidget(parent), m_model(new PinsModel(this)), m_list(new QTreeView(this)), m_summary(new QLabel(this)),
      m_addNote(new QPushButton(tr("Add &Note..."), this))
{
    setObjectName(u"PinsPanel"_s);
    m_list->setObjectName(u"PinsList"_s);
    m_list->setModel(m_model);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAllColumnsShowFocus(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(PinsModel::PinColumn, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(PinsModel::UnpinColumn, QHeaderView::ResizeToContents);
    m_list->installEventFilter(this);
    m_list->setAccessibleName(tr("Pinned facts"));
    m_summary->setObjectName(u"PinsSummary"_s);
    m_summary->setWordWrap(true);
    m_addNote->setObjectName(u"AddPinNoteButton"_s);
    m_addNote->setToolTip(tr("Pin a note of your own, such as \"never touch the migrations folder\""));

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_summary, 1);
    top->addWidget(m_addNote);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_list, 1);

    connect(m_addNote, &QPushButton::clicked, this, &PinsPanel::addNote);
    connect(m_list, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        if (index.column() == PinsModel::UnpinColumn)
            Q_EMIT unpinRequested(index.data(PinsModel::PinIdRole).toLongLong());
    });
    connect(m_list, &QTreeView::activated, this, [this](const QModelIndex &index) {
        const qint64 message = index.data(PinsModel::MessageIdRole).toLongLong();
        if (index.column() == PinsModel::PinColumn && message > 0)
            Q_EMIT messageChosen(message);
    });
    setPins({}, 0, 0, false);
    // Under the Context dock's tables: it may shrink to nothing rather than make the window's
    // smallest size larger (the splitter gives it its share when there is room).
    setMinimumHeight(1);
}

void PinsPanel::setPins(const QList<Pin> &pins, qint64 pinnedTokens, qint64 budgetTokens, bool enabled)
{
    m_model->setPins(pins);
    m_addNote->setEnabled(enabled);
    const QLocale locale;
    if (!enabled)
        m_summary->setText(tr("Pins: open a session to pin what must never be compacted."));
    else if (pins.isEmpty())
        m_summary->setText(tr("Nothing pinned. Right-click a message to pin it, or add a note."));
    else if (budgetTokens == std::numeric_limits<qint64>::max())
        m_summary->setText(tr("%n pin(s), %1 tokens, kept verbatim in every request.", nullptr, int(pins.size()))
                               .arg(locale.toString(pinnedTokens)));
    else
        m_summary->setText(tr("%n pin(s), %1 of %2 tokens, kept verbatim in every request.", nullptr, int(pins.size()))
                               .arg(locale.toString(pinnedTokens), locale.toString(budgetTokens)));
}

QString PinsPanel::summaryText() const
{
    return m_summary->text();
}

bool PinsPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) && m_list->currentIndex().isValid()) {
            Q_EMIT unpinRequested(m_list->currentIndex().data(PinsModel::PinIdRole).toLongLong());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PinsPanel::addNote()
{
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(this, tr("Add a Pinned Note"),
                                                        tr("Kept verbatim in every request, never compacted:"), {}, &ok);
    if (ok && !text.trimmed().isEmpty())
        Q_EMIT noteRequested(text.trimmed());
}

} // namespace wl
