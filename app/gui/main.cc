// hloscope: the desktop application. `hloscope [FILE]` opens FILE (or the
// default sample); with --screenshot it renders the window to a PNG and
// exits (see screenshot.h).
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <cstdio>
#include <memory>

#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"
#include "app/gui/startup_timing.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("hloscope");
  QApplication::setApplicationName("hloscope");
  QCommandLineParser cli;
  cli.setApplicationDescription("hloscope: step through XLA's graph compiler passes on an HLO module.");
  cli.addHelpOption();
  cli.addPositionalArgument("FILE", "HLO text or StableHLO (.mlir); default: samples/transformer_block_large.hlo");
  QCommandLineOption pipeline("pipeline", "Pipeline to run (simplify, gpu, gpu-classic).", "P", "gpu");
  QCommandLineOption step("step", "Screenshot: the step to show: its number in the steps table (0 = the input, "
                          "1, 2, 3... the pass runs, as hloscope-cli's --step), 'initial', 'last', or pass:TEXT "
                          "(the first step whose pass name contains TEXT, e.g. pass:priority-fusion).",
                          "N", "last");
  QCommandLineOption select("select", "Screenshot: select this instruction.", "NAME");
  QCommandLineOption panel("panel",
                           "Screenshot: the panel to raise (graph, timeline, decisions, text, kernels, llvm-ir, ptx, "
                           "sass, details, pipeline, log, whatif; kernels, llvm-ir, ptx, sass: the text panel's tabs).",
                           "PANEL", "graph");
  QCommandLineOption kernels("kernels", "Screenshot: generate the step's kernels (Ctrl+K) before the picture.");
  QCommandLineOption shot("screenshot", "Render the window to OUT.png and exit.", "OUT.png");
  QCommandLineOption size("size", "Screenshot: window size.", "WxH", "1600x1000");
  QCommandLineOption zoom("zoom", "Screenshot: zoom the graph by this factor around the selection (or the centre).",
                          "FACTOR", "1");
  QCommandLineOption compare("compare", "Screenshot: compare the step with module B and save the compare window.",
                             "B");
  QCommandLineOption vs_xla("vs-xla",
                            "Screenshot: open this XLA dump or reference folder of FILE beside and show the "
                            "decisions panel's \"vs XLA\" rows (our decisions against XLA's).",
                            "DIR");
  QCommandLineOption layout_stats(
      "layout-stats",
      "Print one JSON object about the graph view as a user first sees it at --step (default last) and --size, "
      "and exit: visible_boxes, groups, min_label_px (label size at the fitted zoom), label_overlaps, edges_drawn, "
      "first_view_ms (from asking for the step's graph to its scene drawn).");
  QCommandLineOption force("force", "Screenshot: overwrite an existing OUT.png.");
  QCommandLineOption timing("timing",
                            "Print to stderr when the first frame, the file, the first interactive graph and the "
                            "pipeline arrive, and how long the UI thread was ever blocked.");
  QCommandLineOption exit_ready("exit-when-ready",
                                "With --timing: quit once the pipeline has run and its last step's graph is drawn.");
  QCommandLineOption whatif_force("whatif-force",
                                  "What-if (issue 30): once the pipeline has run and its last step is drawn, run it "
                                  "again forcing producer P into consumer C (as right-click → Force this fusion); "
                                  "repeatable. With --timing the UI thread is measured during the what-if; "
                                  "--screenshot saves the window with the What-if panel raised.",
                                  "P:C");
  QCommandLineOption whatif_forbid("whatif-forbid", "What-if: as --whatif-force, keeping P and C apart.", "P:C");
  QCommandLineOption lesson("lesson",
                            "Open the guided tour (Help → Guided tour) on FILE at stage 1: a side panel that walks "
                            "the pipeline's stages on the module, written from this run's data.");
  QCommandLineOption lesson_stage("lesson-stage",
                                  "The guided tour at stage N (1 = the first); with --screenshot, the picture of "
                                  "that stage once it is shown (its step, subject and panel).",
                                  "N");
  cli.addOptions({pipeline, step, select, panel, kernels, compare, vs_xla, shot, layout_stats, size, zoom, force, timing, exit_ready,
                  whatif_force, whatif_forbid, lesson, lesson_stage});
  cli.process(app);

  QString file = cli.positionalArguments().isEmpty() ? QString() : cli.positionalArguments().front();
  if (cli.positionalArguments().size() > 1) {
    std::fprintf(stderr, "hloscope: error: expected at most one FILE\n");
    return 2;
  }
  if (file.isEmpty()) file = hloscope::gui::DefaultSamplePath();

  int tour_stage = 0;  // --lesson / --lesson-stage N: the guided tour at stage N (1-based); 0: none
  if (cli.isSet(lesson) || cli.isSet(lesson_stage)) {
    bool ok = true;
    tour_stage = cli.isSet(lesson_stage) ? cli.value(lesson_stage).toInt(&ok) : 1;
    if (!ok || tour_stage < 1) {
      std::fprintf(stderr, "hloscope: error: --lesson-stage: expected a stage number from 1\n");
      return 2;
    }
  }

  if (cli.isSet(shot) || cli.isSet(layout_stats)) {
    hloscope::gui::ScreenshotOptions o;
    o.file = file;
    o.pipeline = cli.value(pipeline);
    o.step = cli.value(step);
    o.select = cli.value(select);
    o.zoom = cli.value(zoom).toDouble();
    o.panel = cli.value(panel);
    o.compare = cli.value(compare);
    o.vs_xla = cli.value(vs_xla);
    o.whatif_force = cli.values(whatif_force);
    o.whatif_forbid = cli.values(whatif_forbid);
    o.output = cli.value(shot);
    o.force = cli.isSet(force);
    o.kernels = cli.isSet(kernels);
    o.layout_stats = cli.isSet(layout_stats);
    o.lesson_stage = tour_stage;
    const QStringList wh = cli.value(size).split('x');
    o.size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
    if (o.layout_stats && !cli.isSet(size)) o.size = QSize(1400, 860);  // the measuring size
    if (file.isEmpty()) {
      std::fprintf(stderr, "hloscope: error: no FILE given and no default sample found\n");
      return 2;
    }
    if (QString err = hloscope::gui::CheckScreenshotOptions(o); !err.isEmpty()) {
      std::fprintf(stderr, "hloscope: error: %s\n", qPrintable(err));
      return 2;
    }
    hloscope::gui::MainWindow window({.persist_settings = false, .dialogs = false, .auto_run = true});
    hloscope::gui::ScreenshotDriver driver(&window, o);
    int code = 0;
    QObject::connect(&driver, &hloscope::gui::ScreenshotDriver::finished, &app, [&](int c, const QString& message) {
      code = c;
      std::fprintf(c ? stderr : stdout, "%s%s\n", c ? "hloscope: error: " : "", qPrintable(message));
      app.exit(c);
    });
    driver.start();
    app.exec();
    return code;
  }

  const bool timed = cli.isSet(timing) || cli.isSet(exit_ready);
  if (timed) qputenv("HLOSCOPE_TIMING", "1");  // handlers that block the UI thread report themselves
  hloscope::gui::MainWindow window(
      {.persist_settings = !timed, .dialogs = !cli.isSet(exit_ready), .auto_run = true});
  std::unique_ptr<hloscope::gui::StartupTiming> timer;
  int code = 0;
  if (timed) {
    timer = std::make_unique<hloscope::gui::StartupTiming>(&window, cli.isSet(exit_ready));
    QObject::connect(timer.get(), &hloscope::gui::StartupTiming::ready, &app, [&](int c) {
      code = c;
      app.exit(c);
    });
  }
  if (cli.isSet(pipeline)) window.setPipelineChoice(cli.value(pipeline));
  const QStringList wf = cli.values(whatif_force), wb = cli.values(whatif_forbid);
  if (!wf.isEmpty() || !wb.isEmpty()) {
    if (!timer) {
      std::fprintf(stderr, "hloscope: error: --whatif-force / --whatif-forbid need --timing or --screenshot\n");
      return 2;
    }
    timer->setWhatIf(wf, wb);
  }
  window.show();
  if (!file.isEmpty()) window.openFile(file);
  // The tour's panel opens now and is written once the pipeline has run;
  // with --timing, once the last step is drawn, and it is walked to the end.
  if (tour_stage > 0 && timer) timer->setLesson(tour_stage - 1);
  else if (tour_stage > 0) window.openLesson(tour_stage - 1);
  const int rc = app.exec();
  if (timer) std::fprintf(stderr, "%s\n", qPrintable(timer->summary()));
  return timer && cli.isSet(exit_ready) ? code : rc;
}
