#include "proxy/ProxyPanel.h"

#include "proxy/ProxyControl.h"
#include "proxy/ProxySnippets.h"
#include "proxy/ProxyTrafficModel.h"
#include "common/PaletteColors.h"

#include <QCheckBox>
#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr ProxySnippets::Client kClients[] = {ProxySnippets::Client::ClaudeCode, ProxySnippets::Client::Codex,
                                              ProxySnippets::Client::Sdks};
}

ProxyPanel::ProxyPanel(ProxyControl *control, QWidget *parent)
    : QWidget(parent)
    , m_control(control)
    , m_upstream(new QLineEdit(this))
    , m_port(new QSpinBox(this))
    , m_startStop(new QPushButton(this))
    , m_status(new QLabel(this))
    , m_baseUrl(new QLineEdit(this))
    , m_copyBaseUrl(new QToolButton(this))
    , m_compact(new QCheckBox(this))
    , m_snippets(new QTabWidget(this))
    , m_copySnippet(new QToolButton(this))
    , m_table(new QTableView(this))
{
    setObjectName(u"ProxyPanel"_s);
    m_upstream->setObjectName(u"ProxyUpstream"_s);
    m_upstream->setPlaceholderText(u"https://api.anthropic.com"_s);
    m_upstream->setToolTip(tr("The provider the proxy forwards to, such as https://api.anthropic.com or https://api.openai.com"));
    m_upstream->setText(control->upstream().toString());
    m_port->setObjectName(u"ProxyPort"_s);
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("any free port"));
    m_port->setValue(control->port());
    m_port->setToolTip(tr("The port on 127.0.0.1 the proxy listens on"));
    m_startStop->setObjectName(u"ProxyStartStop"_s);
    m_status->setObjectName(u"ProxyStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_baseUrl->setObjectName(u"ProxyBaseUrl"_s);
    m_baseUrl->setReadOnly(true);
    m_baseUrl->setPlaceholderText(tr("Start the proxy to get its address"));
    m_baseUrl->setToolTip(tr("Give the agent this base URL: the token in it keeps other local users out"));
    m_copyBaseUrl->setObjectName(u"ProxyCopyBaseUrl"_s);
    m_copyBaseUrl->setText(tr("Copy"));
    m_copyBaseUrl->setToolTip(tr("Copy the base URL"));

    m_compact->setObjectName(u"ProxyCompact"_s);
    m_compact->setText(tr("&Compact requests with the Thresholds dock's policy"));
    m_compact->setToolTip(tr("Compact mode: Waterline's compaction (extractive summaries, offloaded results) runs on each "
                             "request before it goes to the provider, at the window and thresholds the sliders show. "
                             "The recorded session holds the agent's view and Waterline's compactions. Off: requests "
                             "pass unchanged."));
    m_compact->setChecked(control->isCompacting());

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (const ProxySnippets::Client client : kClients) {
        auto *edit = new QPlainTextEdit(m_snippets);
        edit->setReadOnly(true);
        edit->setFont(fixed);
        edit->setLineWrapMode(QPlainTextEdit::NoWrap);
        m_snippets->addTab(edit, ProxySnippets::title(client));
    }
    m_snippets->setObjectName(u"ProxySnippets"_s);
    m_snippets->setDocumentMode(true);
    m_copySnippet->setObjectName(u"ProxyCopySnippet"_s);
    m_copySnippet->setText(tr("Copy"));
    m_copySnippet->setToolTip(tr("Copy the settings shown"));
    m_snippets->setCornerWidget(m_copySnippet, Qt::TopRightCorner);

    m_table->setObjectName(u"ProxyTraffic"_s);
    m_table->setModel(control->traffic());
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ProxyTrafficModel::Path, QHeaderView::Stretch);
    m_table->setWordWrap(false);

    // Left: what to set up and paste; right: what passes. Side by side in the wide bottom area,
    // and the splitter lets a narrow dock give either one the room.
    auto *setup = new QWidget(this);
    auto *form = new QFormLayout;
    form->addRow(tr("&Upstream:"), m_upstream);
    auto *portRow = new QHBoxLayout;
    portRow->addWidget(m_port);
    portRow->addStretch();
    portRow->addWidget(m_startStop);
    auto *portLabel = new QLabel(tr("&Port:"), setup);
    portLabel->setBuddy(m_port);
    form->addRow(portLabel, portRow);
    auto *baseRow = new QHBoxLayout;
    baseRow->addWidget(m_baseUrl, 1);
    baseRow->addWidget(m_copyBaseUrl);
    auto *baseLabel = new QLabel(tr("&Base URL:"), setup);
    baseLabel->setBuddy(m_baseUrl);
    form->addRow(baseLabel, baseRow);
    form->addRow(QString(), m_compact);
    auto *setupLayout = new QVBoxLayout(setup);
    setupLayout->addLayout(form);
    setupLayout->addWidget(m_status);
    setupLayout->addWidget(m_snippets, 1);

    // Scrolled rather than squeezed: the dock shares its tab group's height, which must stay as
    // small as the other docks allow.
    auto *setupScroll = new QScrollArea(this);
    setupScroll->setWidget(setup);
    setupScroll->setWidgetResizable(true);
    setupScroll->setFrameShape(QFrame::NoFrame);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(u"ProxySplitter"_s);
    split->setChildrenCollapsible(false);
    split->addWidget(setupScroll);
    split->addWidget(m_table);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_startStop, &QPushButton::clicked, this, &ProxyPanel::toggle);
    connect(m_upstream, &QLineEdit::returnPressed, this, [this] {
        if (!m_control->isRunning())
            toggle();
    });
    connect(m_copyBaseUrl, &QToolButton::clicked, this, [this] { copy(m_baseUrl->text()); });
    connect(m_compact, &QCheckBox::toggled, m_control, &ProxyControl::setCompacting);
    connect(m_copySnippet, &QToolButton::clicked, this, [this] {
        if (auto *edit = qobject_cast<QPlainTextEdit *>(m_snippets->currentWidget()))
            copy(edit->toPlainText());
    });
    connect(m_control, &ProxyControl::stateChanged, this, &ProxyPanel::refresh);
    // The newest exchange in view, unless the user scrolled up to read an older one.
    connect(control->traffic(), &QAbstractItemModel::rowsAboutToBeInserted, m_table, [this] {
        const QScrollBar *bar = m_table->verticalScrollBar();
        m_followNewest = bar->value() == bar->maximum();
    });
    connect(control->traffic(), &QAbstractItemModel::rowsInserted, m_table, [this] {
        if (m_followNewest)
            m_table->scrollToBottom();
    });
    refresh();
}

void ProxyPanel::toggle()
{
    if (m_control->isRunning()) {
        m_control->stop();
        return;
    }
    m_control->start(QUrl(m_upstream->text().trimmed(), QUrl::StrictMode), quint16(m_port->value()));
}

void ProxyPanel::copy(const QString &text)
{
    if (text.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(text);
}

void ProxyPanel::refresh()
{
    const bool running = m_control->isRunning();
    m_startStop->setText(running ? tr("&Stop") : tr("&Start"));
    m_startStop->setToolTip(running ? tr("Stop the proxy: agents pointed at it lose their provider")
                                    : tr("Start the proxy on 127.0.0.1"));
    m_upstream->setEnabled(!running);
    m_port->setEnabled(!running);
    const QUrl base = m_control->baseUrl();
    m_baseUrl->setText(base.toString());
    m_copyBaseUrl->setEnabled(running);
    m_copySnippet->setEnabled(running);
    for (int i = 0; i < m_snippets->count(); ++i) {
        if (auto *edit = qobject_cast<QPlainTextEdit *>(m_snippets->widget(i)))
            edit->setPlainText(running ? ProxySnippets::text(kClients[i], base)
                                       : tr("Start the proxy: the settings to paste appear here."));
    }
    QPalette palette = m_status->palette();
    palette.setColor(QPalette::WindowText, QWidget::palette().color(QPalette::WindowText));
    const QColor errorColor = isDarkPalette(palette) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x20, 0x20);
    m_compact->setChecked(m_control->isCompacting());
    if (running) {
        QString text = tr("Listening on 127.0.0.1:%1, forwarding to %2.").arg(int(m_control->port())).arg(m_control->upstream().toString());
        if (m_control->isCompacting())
            text += u' ' + tr("Requests are compacted to a %1-token window first.").arg(QLocale().toString(m_control->compactPolicy().contextWindow));
        m_status->setText(text);
    } else if (!m_control->lastError().isEmpty()) {
        m_status->setText(tr("The proxy did not start: %1").arg(m_control->lastError()));
        palette.setColor(QPalette::WindowText, errorColor);
    } else {
        m_status->setText(tr("Stopped. Agents pointed at the proxy get their answers through it, unchanged, and each request appears in the table."));
    }
    m_status->setPalette(palette);
}

} // namespace wl
