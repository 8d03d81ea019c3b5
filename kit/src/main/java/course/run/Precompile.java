package course.run;

import course.base.Course;
import course.base.Exec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The whole course built ahead, as the set-up (setup/setup.sh), Binder's postBuild and autograde run it: every snippet
 * compiled in both languages, each Java snippet's class cache made by one small run of it, the JNI libraries and the
 * eviction helper. Each built as a lab would build it (Build), one line each.
 */
public final class Precompile {
    private final Runner runner = new Runner();
    private final Build build = runner.build();

    private Precompile() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0) {
            System.err.println("course.run.Precompile: takes no arguments (it builds every snippet): " + String.join(" ", args));
            System.exit(2);
        }
        new Precompile().all();
    }

    private void all() throws IOException {
        Path home = Course.home();
        build.evictHelper();
        // each snippet built on its own (a JVM start or two, and javac or gcc): as many at once as there are cores
        List<Callable<String>> steps = new ArrayList<>();
        try (Stream<Path> files = Files.list(home.resolve("c-snippets"))) {
            for (Path c : files.filter(f -> f.toString().endsWith(".c")).sorted().toList()) {
                String snippet = c.getFileName().toString().replace(".c", "");
                if (snippet.equals("harness") || snippet.equals("evict")) continue;  // shared parts, not snippets
                if (Build.needsMissingMpi(c)) {
                    steps.add(() -> "skipped " + snippet + " (" + MpiRun.missing() + ")");
                    continue;
                }
                steps.add(() -> {
                    build.command(snippet, "c");
                    return java(snippet);
                });
            }
        }
        try (Stream<Path> files = Files.list(home.resolve("java-snippets"))) {  // Java-only snippets (typed_ffm)
            for (Path java : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String snippet = Build.snakeCase(java.getFileName().toString().replace(".java", ""));
                if (Files.exists(build.cSource(snippet)) || !Files.readString(java).contains("Harness.run(")) continue;
                steps.add(() -> java(snippet));
            }
        }
        try (Stream<Path> files = Files.list(home.resolve("c-snippets/jni"))) {
            for (Path c : files.filter(f -> f.toString().endsWith(".c")).sorted().toList()) {
                if (Build.needsMissingMpi(c)) continue;  // said above
                steps.add(() -> "precompiled " + build.nativeLibrary(c.getFileName().toString().replace(".c", "")));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        try {
            for (Future<String> step : pool.invokeAll(steps)) System.out.println(step.get());  // in order, as each is done
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Compiles a snippet's Java side and makes its class cache, or says it needs a newer JDK (typed_ffm, mapped_file and small_reads need 22). */
    private String java(String snippet) {
        try {
            build.command(snippet, "java");
        } catch (Exec.RunFailed e) {
            return "skipped " + snippet + " in Java (it needs a newer JDK than " + Runtime.version().feature() + ")";
        }
        return "precompiled " + snippet + classCache(snippet);
    }

    /**
     * " and its class cache" (Runner.classCache): made here, a lab's first run of the snippet need not make it, and a course
     * no one may write (a grading sandbox, a hub's, an image) has it. A run that fails is said, and leaves the cache to a
     * lab's first run.
     */
    private String classCache(String snippet) {
        try {
            return runner.classCache(snippet, Course.scratch()) ? " and its class cache" : " (no class cache: this JDK made none)";
        } catch (RuntimeException e) {
            return " (no class cache: " + e.getMessage().lines().reduce((first, last) -> last).orElse("") + ")";
        }
    }
}
