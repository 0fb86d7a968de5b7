#include "views/log/log_panel.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QVBoxLayout>

namespace hloscope::views {

LogPanel::LogPanel(QWidget* parent) : QWidget(parent) {
  edit_ = new QPlainTextEdit;
  edit_->setReadOnly(true);
  edit_->setMaximumBlockCount(5000);
  edit_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(edit_);
}

void LogPanel::append(Level level, const QString& text) {
  const char* color = level == Level::kError ? "#c62828" : level == Level::kWarning ? "#ef6c00" : "#333333";
  const char* tag = level == Level::kError ? "error" : level == Level::kWarning ? "warning" : "info";
  errors_ += level == Level::kError;
  const QString time = QDateTime::currentDateTime().toString("HH:mm:ss");
  edit_->appendHtml(QString("<span style='color:#888'>%1</span> <span style='color:%2'><b>%3</b>: %4</span>")
                        .arg(time, color, tag, text.toHtmlEscaped().replace('\n', "<br>")));
  edit_->verticalScrollBar()->setValue(edit_->verticalScrollBar()->maximum());
}

QString LogPanel::text() const { return edit_->toPlainText(); }

}  // namespace hloscope::views
