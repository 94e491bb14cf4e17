#include "TimelinePanel.h"

#include "TimelineChart.h"
#include "TimelineMarkerLayer.h"
#include "TimelineModel.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

TimelinePanel::TimelinePanel(TimelineModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_chart(new TimelineChart(this))
{
    setObjectName(u"TimelinePanel"_s);
    m_chart->setModel(model);

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
    bar->addStretch();
    bar->addWidget(exportButton);
    layout->addLayout(bar);
    layout->addWidget(m_chart, 1);

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
