package course;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The kit's classes, read from their class files: which uses which. The data path runs one way (a cell, Lab, a
 * sweep's plan, its run, a child's rows, Results, Estimate and Verdict, charts, the saved file), and no class
 * reaches back up it: no two classes use each other, directly or round a longer loop, and no package uses one
 * above it in LAYERS.
 */
class ArchitectureTest {
    /**
     * The kit's packages from the top (what a notebook or a teacher calls) to the bottom (what everything uses); a
     * class may use its own package and those below it. Packages on one line stand side by side and use neither.
     */
    static final List<List<String>> LAYERS = List.of(
            List.of("course.claims", "course.classroom"),  // each lab's judged claims; the class's hand-ins
            List.of("course"),          // Lab, the notebook's handle, and the exercises' helpers
            List.of("course.profile"),  // strace, JFR, async-profiler, fio beside the runs
            List.of("course.run"),      // the plan (Preset, Sweep), building and running the snippets
            List.of("course.show"),     // charts and notebook output
            List.of("course.judge"),    // intervals, verdicts, the studies' claims
            List.of("course.record"),   // the run record: schema, runs, results, the machine
            List.of("course.base"));    // the course's folders and sizes, processes, scratch, HTML

    private static final JavaClasses KIT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("course");

    /** Each top-level class of the kit and the kit's top-level classes it uses (a nested class counts as its outer one). */
    static Map<String, Set<String>> uses() {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass c : KIT) {
            String from = topLevel(c);
            Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (!target.getPackageName().startsWith("course") || target.isArray()) continue;
                String name = topLevel(target);
                if (!name.equals(from)) to.add(name);
            }
        }
        return uses;
    }

    private static String topLevel(JavaClass c) {
        String name = c.getName();
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    /** The groups of classes that reach each other (Tarjan's strongly connected components with more than one class). */
    static List<Set<String>> loops(Map<String, Set<String>> uses) {
        Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<Set<String>> loops = new ArrayList<>();
        int[] next = {0};
        for (String start : uses.keySet()) {
            if (!index.containsKey(start)) connect(start, uses, index, low, stack, onStack, loops, next);
        }
        return loops;
    }

    private static void connect(String v, Map<String, Set<String>> uses, Map<String, Integer> index, Map<String, Integer> low,
                                Deque<String> stack, Set<String> onStack, List<Set<String>> loops, int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : uses.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, uses, index, low, stack, onStack, loops, next);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) loops.add(component);
        }
    }

    @Test
    void noClassesUseEachOther() {
        Map<String, Set<String>> uses = uses();
        List<String> pairs = new ArrayList<>();
        uses.forEach((a, targets) -> targets.forEach(b -> {
            if (a.compareTo(b) < 0 && uses.getOrDefault(b, Set.of()).contains(a)) pairs.add(a + " <-> " + b);
        }));
        assertEquals(List.of(), pairs, "classes that use each other");
        assertEquals(List.of(), loops(uses), "classes that reach each other round a loop");
    }

    /** Where a package stands in LAYERS (0: the top). */
    static int layer(String pkg) {
        for (int i = 0; i < LAYERS.size(); i++) if (LAYERS.get(i).contains(pkg)) return i;
        throw new AssertionError(pkg + " is in no layer of ArchitectureTest.LAYERS: place it there");
    }

    private static String pkg(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    /** Each use of a class in a package above the user's, or beside it, as "user -> used". */
    static List<String> againstTheGrain(Map<String, Set<String>> uses) {
        List<String> wrong = new ArrayList<>();
        uses.forEach((from, targets) -> targets.forEach(to -> {
            int a = layer(pkg(from)), b = layer(pkg(to));
            if (b < a || (b == a && !pkg(from).equals(pkg(to)))) wrong.add(from + " -> " + to);
        }));
        return wrong;
    }

    @Test
    void noPackageUsesOneAboveIt() {
        assertEquals(List.of(), againstTheGrain(uses()), "uses against the grain of ArchitectureTest.LAYERS");
        assertEquals(List.of("course.base.Course -> course.Lab", "course.claims.Lab01 -> course.classroom.Handins"),
                againstTheGrain(Map.of("course.base.Course", Set.of("course.Lab", "course.base.Html"),
                        "course.claims.Lab01", Set.of("course.classroom.Handins"))).stream().sorted().toList(),
                "the rule itself: up is wrong, and so is sideways at the top");
    }

    @Test
    void theKernelImportsEveryPackage() throws java.io.IOException {
        List<String> imported = java.nio.file.Files.readAllLines(course.base.Course.home().resolve("kit/startup.jsh")).stream()
                .filter(l -> l.startsWith("import ")).map(l -> l.replaceFirst("^import (.*)\\.\\*;$", "$1")).sorted().toList();
        assertEquals(LAYERS.stream().flatMap(List::stream).sorted().toList(), imported, "kit/startup.jsh imports each package of LAYERS");
    }

    @Test
    void theClassFilesAreRead() {
        Map<String, Set<String>> uses = uses();
        assertEquals(true, uses.get("course.Lab").contains("course.run.Sweep"), "a lab makes sweeps");
        assertEquals(true, uses.get("course.claims.Lab01").contains("course.judge.Verdict"), "lab 01's claims are verdicts");
    }

    @Test
    void theLoopFinderFindsALoop() {
        Map<String, Set<String>> uses = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertEquals(List.of(Set.of("a", "b", "c")), loops(uses));
    }
}
