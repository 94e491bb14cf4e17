#include "FirstRunPanel.h"

#include "ProviderCheck.h"
#include "llm/ModelDiscovery.h"

#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr int kProbeTimeoutMs = 5000;   // a local server answers at once or not at all

QLabel *stepNumber(int n, QWidget *parent)
{
    auto *label = new QLabel(QString::number(n), parent);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.4);
    label->setFont(font);
    label->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    label->setMinimumWidth(28);
    label->setAccessibleName(FirstRunPanel::tr("Step %1").arg(n));
    return label;
}

QLabel *stepText(const QString &html, QWidget *parent)
{
    auto *label = new QLabel(html, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

FirstRunPanel::FirstRunPanel(QWidget *parent)
    : QWidget(parent)
    , m_profile(ProviderProfile::defaultProfile())
    , m_probe(new ProviderCheck(this))
{
    setObjectName(u"firstRunPanel"_s);
    m_probe->setTimeoutMs(kProbeTimeoutMs);

    auto *card = new QFrame(this);
    card->setObjectName(u"firstRunCard"_s);
    card->setFrameShape(QFrame::StyledPanel);
    card->setMaximumWidth(680);
    auto *cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(28, 24, 28, 24);
    cardLayout->setSpacing(14);

    auto *title = new QLabel(tr("Connect a model"), card);
    title->setObjectName(u"firstRunTitle"_s);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    title->setFont(titleFont);
    cardLayout->addWidget(title);
    auto *intro = new QLabel(tr("Waterline runs an agent against a language model. No model answered yet; "
                                "a local one takes three steps."), card);
    intro->setWordWrap(true);
    cardLayout->addWidget(intro);

    auto *steps = new QGridLayout;
    steps->setHorizontalSpacing(12);
    steps->setVerticalSpacing(14);
    steps->setColumnStretch(1, 1);
    steps->addWidget(stepNumber(1, card), 0, 0);
    steps->addWidget(stepText(tr("Install <b>Ollama</b> (or any OpenAI-compatible server: llama.cpp, vLLM, "
                                 "LM Studio) and start it."), card), 0, 1);
    steps->addWidget(stepNumber(2, card), 1, 0);
    steps->addWidget(stepText(tr("Download a model that can call tools, for example "
                                 "<code>ollama pull qwen3</code>"), card), 1, 1);
    steps->addWidget(stepNumber(3, card), 2, 0);

    auto *check = new QVBoxLayout;
    auto *addressLabel = new QLabel(tr("Check that Waterline can reach it at this &address:"), card);
    addressLabel->setWordWrap(true);
    m_address = new QLineEdit(card);
    m_address->setObjectName(u"firstRunAddressEdit"_s);
    m_address->setClearButtonEnabled(true);
    addressLabel->setBuddy(m_address);
    m_check = new QPushButton(tr("&Check again"), card);
    m_check->setObjectName(u"firstRunCheckButton"_s);
    m_check->setDefault(true);
    auto *addressRow = new QHBoxLayout;
    addressRow->addWidget(m_address, 1);
    addressRow->addWidget(m_check);
    m_status = new QLabel(card);
    m_status->setObjectName(u"firstRunStatusLabel"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusIcon = new QLabel(card);
    m_statusIcon->setObjectName(u"firstRunStatusIcon"_s);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_statusIcon, 0, Qt::AlignTop);
    statusRow->addWidget(m_status, 1);
    check->addWidget(addressLabel);
    check->addLayout(addressRow);
    check->addLayout(statusRow);
    steps->addLayout(check, 2, 1);
    cardLayout->addLayout(steps);

    auto *line = new QFrame(card);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    cardLayout->addWidget(line);

    auto *other = new QLabel(tr("Using a hosted API (OpenAI, Anthropic, OpenRouter) or another address? "
                                "Add a provider profile in Settings. Just looking around? The demo session "
                                "shows a long run with its compactions, and an imported Claude Code, Codex, "
                                "OpenHands or SWE-agent transcript can be replayed and tuned: neither needs a model."), card);
    other->setWordWrap(true);
    cardLayout->addWidget(other);
    m_settings = new QPushButton(tr("Open &Settings\u2026"), card);
    m_settings->setObjectName(u"firstRunSettingsButton"_s);
    m_demo = new QPushButton(tr("Open the &demo session"), card);
    m_demo->setObjectName(u"firstRunDemoButton"_s);
    m_import = new QPushButton(tr("&Import a transcript…"), card);
    m_import->setObjectName(u"firstRunImportButton"_s);
    m_import->setToolTip(tr("Replay another agent's session (Claude Code, Codex, OpenHands, SWE-agent, OpenAI "
                            "messages) or a Waterline export"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_settings);
    buttons->addWidget(m_demo);
    buttons->addWidget(m_import);
    buttons->addStretch(1);
    cardLayout->addLayout(buttons);

    auto *outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto *centre = new QHBoxLayout;
    centre->addStretch(1);
    centre->addWidget(card, 4);
    centre->addStretch(1);
    outer->addLayout(centre);
    outer->addStretch(2);

    connect(m_check, &QPushButton::clicked, this, &FirstRunPanel::checkAgain);
    connect(m_address, &QLineEdit::returnPressed, this, &FirstRunPanel::checkAgain);
    connect(m_settings, &QPushButton::clicked, this, &FirstRunPanel::settingsRequested);
    connect(m_demo, &QPushButton::clicked, this, &FirstRunPanel::demoRequested);
    connect(m_import, &QPushButton::clicked, this, &FirstRunPanel::importRequested);
    connect(m_probe, &ProviderCheck::modelsFound, this, [this](const QStringList &ids) {
        m_models = ids;
        QString text;
        if (ids.isEmpty()) {
            text = tr("Reachable, but the server offers no model yet: download one (step 2), then check again.");
        } else {
            QStringList shown = ids.mid(0, 4);
            if (ids.size() > shown.size())
                shown << u"\u2026"_s;
            text = tr("Reachable. Models offered: %1 (%2).").arg(ids.size()).arg(shown.join(u", "_s));
        }
        setState(State::Reachable, text);
        Q_EMIT providerReachable(true);
    });
    connect(m_probe, &ProviderCheck::failed, this, [this](const ChatError &error) {
        m_models.clear();
        setState(State::Unreachable, tr("Not reachable: %1").arg(error.displayText()));
        Q_EMIT providerReachable(false);
    });

    setProfile(m_profile);
}

FirstRunPanel::~FirstRunPanel() = default;

void FirstRunPanel::setProfile(const ProviderProfile &profile)
{
    m_profile = profile;
    m_address->setText(profile.baseUrl.toString());
    setState(State::NotChecked, tr("Not checked yet."));
}

ProviderProfile FirstRunPanel::profile() const
{
    ProviderProfile p = m_profile;
    p.baseUrl = QUrl(m_address->text().trimmed());
    return p;
}

void FirstRunPanel::setTimeoutMs(int ms)
{
    m_probe->setTimeoutMs(ms);
}

void FirstRunPanel::checkAgain()
{
    const ProviderProfile p = profile();
    if (!p.baseUrl.isValid() || p.baseUrl.host().isEmpty()
        || (p.baseUrl.scheme() != u"http" && p.baseUrl.scheme() != u"https")) {
        m_probe->cancel();
        m_models.clear();
        setState(State::Unreachable, tr("Enter an http:// or https:// address, such as %1.")
                                         .arg(ProviderProfile::defaultProfile().baseUrl.toString()));
        Q_EMIT providerReachable(false);
        return;
    }
    setState(State::Checking, tr("Checking %1\u2026").arg(ModelDiscovery::modelsUrl(p).toString()));
    m_probe->discoverModels(p);
}

QString FirstRunPanel::statusText() const
{
    return m_status->text();
}

void FirstRunPanel::setState(State state, const QString &text)
{
    m_state = state;
    m_status->setText(text);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    switch (state) {
    case State::Reachable:
        m_statusIcon->setPixmap(style()->standardIcon(QStyle::SP_DialogApplyButton, nullptr, this).pixmap(size, size));
        break;
    case State::Unreachable:
        m_statusIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(size, size));
        break;
    case State::NotChecked:
    case State::Checking:
        m_statusIcon->clear();
        break;
    }
    m_statusIcon->setVisible(state == State::Reachable || state == State::Unreachable);
    m_check->setEnabled(state != State::Checking);
}

} // namespace wl
