#include "TimelinePanel.h"

#include "TimelineChart.h"
#include "TimelineMarkerLayer.h"
#include "TimelineModel.h"
#include "common/CompositionStyle.h"
#include "settings/AppSettings.h"

#include <QButtonGroup>
#include <QFileDialog>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStringList>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

TimelinePanel::TimelinePanel(TimelineModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_chart(new TimelineChart(this))
    , m_linesButton(new QToolButton(this))
    , m_compositionButton(new QToolButton(this))
    , m_percentButton(new QToolButton(this))
    , m_tokensButton(new QToolButton(this))
    , m_resetZoomButton(new QToolButton(this))
    , m_windowLabel(new QLabel(this))
    , m_zoomLabel(new QLabel(this))
    , m_note(new QLabel(this))
    , m_legend(new QLabel(this))
{
    setObjectName(u"TimelinePanel"_s);
    m_chart->setModel(model);

    // What is drawn: the lines, or the composition of each request.
    m_linesButton->setObjectName(u"TimelineLinesButton"_s);
    m_linesButton->setText(tr("Lines"));
    m_linesButton->setToolTip(tr("Draw the full history, what was sent, the provider's count and the what-if as lines"));
    m_compositionButton->setObjectName(u"TimelineCompositionButton"_s);
    m_compositionButton->setText(tr("Composition"));
    m_compositionButton->setToolTip(tr("Draw what filled each request's window, by category, as stacked areas "
                                       "(the what-if's while one is shown)"));
    auto *viewGroup = new QButtonGroup(this);
    for (QToolButton *button : {m_linesButton, m_compositionButton}) {
        button->setCheckable(true);
        button->setAutoRaise(true);
        viewGroup->addButton(button);
    }
    m_linesButton->setChecked(true);
    connect(m_compositionButton, &QToolButton::toggled, this, [this](bool on) {
        m_chart->setMode(on ? TimelineChart::Mode::Composition : TimelineChart::Mode::Lines);
        updateLegend();
        if (m_settings)
            m_settings->setTimelineView(on ? AppSettings::TimelineView::Composition : AppSettings::TimelineView::Lines);
    });
    m_legend->setObjectName(u"TimelineCompositionLegend"_s);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setContentsMargins(6, 0, 6, 0);
    m_legend->hide();

    // The vertical axis: percent of one window, or tokens.
    m_percentButton->setObjectName(u"TimelinePercentButton"_s);
    m_percentButton->setText(tr("% of window"));
    m_percentButton->setToolTip(tr("Measure every line as a share of one context window (the what-if's, when it has its own)"));
    m_tokensButton->setObjectName(u"TimelineTokensButton"_s);
    m_tokensButton->setText(tr("Tokens"));
    m_tokensButton->setToolTip(tr("Measure every line in tokens"));
    auto *scaleGroup = new QButtonGroup(this);
    for (QToolButton *button : {m_percentButton, m_tokensButton}) {
        button->setCheckable(true);
        button->setAutoRaise(true);
        scaleGroup->addButton(button);
    }
    m_percentButton->setChecked(true);
    connect(m_percentButton, &QToolButton::toggled, this, [this](bool on) {
        if (!on)
            return;
        m_chart->setScale(TimelineScale::Percent);
        if (m_settings)
            m_settings->setTimelineAxis(AppSettings::TimelineAxis::Percent);
    });
    connect(m_tokensButton, &QToolButton::toggled, this, [this](bool on) {
        if (!on)
            return;
        m_chart->setScale(TimelineScale::Tokens);
        if (m_settings)
            m_settings->setTimelineAxis(AppSettings::TimelineAxis::Tokens);
    });

    m_resetZoomButton->setObjectName(u"TimelineResetZoomButton"_s);
    m_resetZoomButton->setText(tr("Show all"));
    m_resetZoomButton->setToolTip(tr("Show every request again (0). The wheel zooms, a drag or Shift+wheel pans, + and - zoom, "
                                     "Left and Right move the selected request."));
    m_resetZoomButton->setAutoRaise(true);
    connect(m_resetZoomButton, &QToolButton::clicked, m_chart, &TimelineChart::resetZoom);
    m_windowLabel->setObjectName(u"TimelineWindowLabel"_s);
    // As narrow as the dock wants: the whole sentence is in its tooltip.
    m_windowLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_windowLabel->setMinimumWidth(40);
    m_zoomLabel->setObjectName(u"TimelineZoomLabel"_s);
    m_note->setObjectName(u"TimelineNote"_s);
    m_note->setWordWrap(true);
    m_note->setContentsMargins(6, 0, 6, 0);
    connect(m_chart, &TimelineChart::viewChanged, this, &TimelinePanel::updateStatus);
    // Whose composition is drawn changes with the what-if.
    connect(m_model, &TimelineModel::whatIfChanged, this, &TimelinePanel::updateLegend);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TimelinePanel::updateLegend);

    auto *exportButton = new QToolButton(this);
    exportButton->setObjectName(u"TimelineExportButton"_s);
    exportButton->setText(tr("Export"));
    exportButton->setToolTip(tr("Save the chart as PNG or SVG, or its data as CSV"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(exportButton);
    connect(menu->addAction(tr("Chart as PNG...")), &QAction::triggered, this, [this] { exportTo(u"png"_s); });
    connect(menu->addAction(tr("Chart as SVG...")), &QAction::triggered, this, [this] { exportTo(u"svg"_s); });
    connect(menu->addAction(tr("Data as CSV...")), &QAction::triggered, this, [this] { exportTo(u"csv"_s); });
    exportButton->setMenu(menu);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(m_linesButton);
    bar->addWidget(m_compositionButton);
    bar->addSpacing(8);
    bar->addWidget(m_percentButton);
    bar->addWidget(m_tokensButton);
    bar->addSpacing(8);
    bar->addWidget(m_windowLabel, 1);
    bar->addSpacing(8);
    bar->addWidget(m_zoomLabel);
    bar->addWidget(m_resetZoomButton);
    bar->addWidget(exportButton);
    // Tab in visual order: the bar, then the chart below it (made first).
    setTabOrder({m_linesButton, m_compositionButton, m_percentButton, m_tokensButton, m_resetZoomButton, exportButton, m_chart});
    layout->addLayout(bar);
    layout->addWidget(m_note);
    layout->addWidget(m_legend);
    layout->addWidget(m_chart, 1);
    updateStatus();

    connect(m_chart, &TimelineChart::requestSelected, this, &TimelinePanel::requestChosen);
    connect(m_chart->markerLayer(), &TimelineMarkerLayer::clicked, this, &TimelinePanel::onMarkerClicked);
}

void TimelinePanel::selectRequest(int index)
{
    m_chart->setSelectedRequest(index);
}

void TimelinePanel::onMarkerClicked(const QPointF &point)
{
    // Only the markers of recorded compactions name a record (not what-if or the source agent's).
    const int row = int(std::lround(point.x()));
    if (row < 0 || row >= m_model->recorded().size() || m_model->recorded().at(row).recordId.isEmpty())
        return;
    for (Tier tier : {Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency}) {
        if (m_chart->markerPoints(tier, false).contains(point)) {
            Q_EMIT compactionChosen(m_model->recorded().at(row).recordId);
            return;
        }
    }
}

void TimelinePanel::setSettings(AppSettings *settings)
{
    m_settings = nullptr; // checking the button below is not a choice to store
    const bool tokens = settings && settings->timelineAxis() == AppSettings::TimelineAxis::Tokens;
    (tokens ? m_tokensButton : m_percentButton)->setChecked(true);
    const bool composition = settings && settings->timelineView() == AppSettings::TimelineView::Composition;
    (composition ? m_compositionButton : m_linesButton)->setChecked(true);
    m_settings = settings;
}

void TimelinePanel::updateStatus()
{
    const TimelineViewport &view = m_chart->visibleRequests();
    const int rows = m_model->rowCount();
    const bool zoomed = m_chart->isZoomed() && rows > 0;
    if (zoomed) {
        const int first = std::clamp(int(std::ceil(view.min())), 0, rows - 1);
        const int last = std::clamp(int(std::floor(view.max())), 0, rows - 1);
        m_zoomLabel->setText(tr("Requests %1–%2 of %3")
                                 .arg(m_model->recorded().at(first).requestIndex)
                                 .arg(m_model->recorded().at(last).requestIndex)
                                 .arg(QLocale().toString(rows)));
    } else {
        m_zoomLabel->clear();
    }
    m_resetZoomButton->setVisible(zoomed);
    m_windowLabel->setText(m_chart->windowNote());
    m_windowLabel->setToolTip(m_chart->windowNote());
    m_note->setText(m_chart->clipNote());
    m_note->setVisible(!m_chart->clipNote().isEmpty());
}

void TimelinePanel::updateLegend()
{
    const bool composition = m_chart->mode() == TimelineChart::Mode::Composition;
    m_legend->setVisible(composition);
    if (!composition)
        return;
    QStringList items;
    for (ViewComposition::Part part : ViewComposition::kParts)
        items.append(u"<span style=\"color:%1\">\u25a0</span>&nbsp;%2"_s.arg(compositionColor(part, palette()).name(),
                                                                            compositionPartName(part).toHtmlEscaped()));
    const QString whose = m_model->compositionIsWhatIf() ? tr("What-if:") : tr("As sent:");
    m_legend->setText(whose.toHtmlEscaped() + u" "_s + items.join(u" &nbsp; "_s));
}

bool TimelinePanel::exportCsv(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(m_model->toCsv().toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void TimelinePanel::exportTo(const QString &format)
{
    QSettings settings;
    const QString dirKey = u"Timeline/exportDir"_s;
    const QString dir = settings.value(dirKey, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString();
    const QString filter = format == u"png" ? tr("PNG image (*.png)") : format == u"svg" ? tr("SVG image (*.svg)") : tr("CSV file (*.csv)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), dir + u"/timeline."_s + format, filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(u'.' + format, Qt::CaseInsensitive))
        path += u'.' + format;
    settings.setValue(dirKey, QFileInfo(path).absolutePath());
    QString error;
    const bool ok = format == u"png" ? m_chart->exportPng(path, &error)
        : format == u"svg"           ? m_chart->exportSvg(path, &error)
                                     : exportCsv(path, &error);
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace wl
