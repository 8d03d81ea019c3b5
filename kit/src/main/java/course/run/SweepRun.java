package course.run;

import com.google.gson.JsonObject;
import course.base.Course;
import course.base.Exec;
import course.record.NoiseFloor;
import course.record.Results;
import course.record.Run;
import course.show.Notebook;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a sweep's schedule (Sweep, the plan) with a runner in a scratch folder: each process in turn with live
 * progress, each run it prints marked with its round and place ("order"), short cases' later rounds stretched
 * toward the plan's round_ms (see Sweep).
 */
public final class SweepRun {
    private final Runner runner;
    private final Path scratch;
    private final Sweep sweep;

    SweepRun(Runner runner, Path scratch, Sweep sweep) {
        this.runner = runner;
        this.scratch = scratch;
        this.sweep = sweep;
    }

    /** The sweep's results; where this machine cannot run it at all (Exec.RunFailed.unsupported), one line saying so and none. */
    public static java.util.Optional<Results> results(Runner runner, Path scratch, Sweep sweep) {
        List<Sweep.Round> plan = sweep.schedule();
        try {
            return java.util.Optional.of(new Results(new SweepRun(runner, scratch, sweep).execute(plan)));
        } catch (Exec.RunFailed e) {
            if (!e.unsupported()) throw e;
            Notebook.unavailable(sweep.name(), e.getMessage().strip());
            return java.util.Optional.empty();
        }
    }

    /** The noise floor on the sweep's first case, run as two identical cases, interleaved (Sweep.noisePlan); not recorded. */
    public static NoiseFloor noiseFloor(Runner runner, Path scratch, Sweep sweep) {
        List<Double> a = new ArrayList<>(), b = new ArrayList<>();
        for (JsonObject json : new SweepRun(runner, scratch, sweep).execute(sweep.noisePlan())) {
            Run run = new Run(json);
            (run.order() % 2 == 1 ? a : b).add((double) run.elapsedNs());
        }
        Runner.Invocation first = sweep.invocations().get(0);
        String name = String.format(Locale.ROOT, "%s %s, %s file, %s operations", sweep.snippet(), first.caseName(), first.flag("--file-size"),
                first.flag("--op-size").equals("1") ? "1-byte" : first.flag("--op-size"));
        return new NoiseFloor(name, a.size(), Results.median(a), Results.median(b));
    }

    /** Starts each process of a plan in turn with live progress; every run it prints, marked with its round and order. */
    List<JsonObject> execute(List<Sweep.Round> plan) {
        List<JsonObject> rows = new ArrayList<>();
        String progress = "progress-" + System.nanoTime();
        long start = System.nanoTime();
        double total = plan.stream().mapToDouble(r -> weight(r.invocation())).sum(), done = 0;
        java.util.Map<String, List<Double>> firstRound = new java.util.HashMap<>();  // a case's run times (ns) in round 1
        for (int i = 0; i < plan.size(); i++) {
            Sweep.Round step = stretched(plan.get(i), firstRound);
            int order = i + 1;
            double doneBefore = done;
            showProgress(progress, order, plan.size(), step, 0, start, doneBefore, total);
            for (JsonObject row : runner.run(step.invocation(), scratch, row ->
                    showProgress(progress, order, plan.size(), step, new Run(row).run() + 1, start, doneBefore, total))) {
                row.addProperty("round", step.round());
                row.addProperty("order", order);
                rows.add(row);
                if (step.round() == 1) firstRound.computeIfAbsent(caseKey(step.invocation()), k -> new ArrayList<>()).add((double) new Run(row).elapsedNs());
            }
            done += weight(step.invocation());
        }
        int of = plan.get(plan.size() - 1).of();
        Notebook.show(Notebook.data(String.format(Locale.ROOT, "<small>done: %d processes of %s in %d round%s, %.1f s</small>",
                plan.size(), plan.get(0).invocation().snippet(), of, of == 1 ? "" : "s", (System.nanoTime() - start) / 1e9), "done"), progress);
        return rows;
    }

    /** A later round of a short case with its runs stretched toward roundMs (see the class doc); any other step as planned. */
    private Sweep.Round stretched(Sweep.Round step, java.util.Map<String, List<Double>> firstRound) {
        List<Double> first = firstRound.get(caseKey(step.invocation()));
        if (sweep.roundMs() <= 0 || step.round() == 1 || first == null) return step;
        int planned = Integer.parseInt(step.invocation().flag("--repeat"));
        int runs = Sweep.runsFor(planned, Results.median(first) / 1e6, sweep.roundMs());
        if (runs == planned) return step;
        List<String> flags = new ArrayList<>(step.invocation().flags());
        flags.set(flags.indexOf("--repeat") + 1, String.valueOf(runs));
        Runner.Invocation inv = step.invocation();
        return new Sweep.Round(step.round(), step.of(), new Runner.Invocation(inv.snippet(), inv.language(), List.copyOf(flags), inv.javaHome()));
    }

    /** An invocation without its run count: the same case in every round. */
    private static String caseKey(Runner.Invocation inv) {
        List<String> flags = new ArrayList<>(inv.flags());
        int at = flags.indexOf("--repeat");
        flags.subList(at, at + 2).clear();
        return inv.language() + " " + inv.snippet() + " " + flags + " " + inv.javaHome();
    }

    private static void showProgress(String id, int order, int count, Sweep.Round step, int runsDone, long start,
                                     double doneWeight, double totalWeight) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        String left = doneWeight > 0 ? String.format(Locale.ROOT, ", about %.0f s left", elapsed * (totalWeight - doneWeight) / doneWeight) : "";
        String round = step.of() > 1 ? String.format(Locale.ROOT, "round %d of %d · ", step.round(), step.of()) : "";
        String text = String.format(Locale.ROOT, "▶ %s%d of %d: %s · run %d of %s · %.0f s elapsed%s", round,
                order, count, step.invocation().label(), runsDone, step.invocation().flag("--repeat"), elapsed, left);
        Notebook.status(text, id);
    }

    /** Work an invocation does, roughly: bytes moved times the number of runs. */
    private static double weight(Runner.Invocation inv) {
        double size = Course.parseSize(inv.flag("--file-size"));
        double runs = Double.parseDouble(inv.flag("--repeat")) + Double.parseDouble(inv.flag("--warmup"));
        return size * runs * (inv.language().equals("java") ? 1.3 : 1);
    }
}
