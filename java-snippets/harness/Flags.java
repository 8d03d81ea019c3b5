// The protocol's flags, in one table, and the checks on their values that every snippet shares. Twin:
// c-snippets/harness/flags.c, whose flags[] is the same table row for row. See Harness.java for the rooms.
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

final class Flags {
    /** The limits of the flags' values (the table names them; C: rooms.h). */
    static final long MAX_FILE_SIZE = 64L << 30;
    static final long MAX_OP_SIZE = 64L << 20;
    static final long MAX_BUFFER_SIZE = 1L << 30;
    static final int MAX_THREADS = 256;
    static final int MAX_DEPTH = 256;
    static final int MAX_PROCS = 256;

    enum Kind { CHOICE, SIZE, COUNT, PATH, SWITCH }

    /**
     * A flag of the protocol: its kind, its default as one would type it (null: none), the range of a size
     * or a count, the values a choice allows (null for --strategy: the snippet's own), and the snippets that
     * take it (null: every snippet; any other refuses it by name). FLAGS is the same table as flags[] in
     * flags.c, row for row (tests/test_mirror.py).
     */
    record Flag(String name, Kind kind, String fallback, long min, long max, List<String> allowed, List<String> usedBy) {
        boolean takenBy(String snippet) {
            return usedBy == null || usedBy.contains(snippet);
        }
    }

    static final List<Flag> FLAGS = List.of(
            new Flag("--strategy", Kind.CHOICE, null, 0, 0, null, null),
            new Flag("--op", Kind.CHOICE, "read", 0, 0, List.of("read", "write"), null),
            new Flag("--pattern", Kind.CHOICE, "seq", 0, 0, List.of("seq", "rand"), null),
            new Flag("--cache", Kind.CHOICE, "warm", 0, 0, List.of("warm", "cold"), null),
            new Flag("--file-size", Kind.SIZE, "1m", 1, MAX_FILE_SIZE, null, null),
            new Flag("--op-size", Kind.SIZE, "1", 1, MAX_OP_SIZE, null, null),
            new Flag("--repeat", Kind.COUNT, "3", 1, 1000, null, null),
            new Flag("--warmup", Kind.COUNT, "1", 0, 100, null, null),
            new Flag("--seed", Kind.COUNT, "42", 0, Long.MAX_VALUE, null, null),
            new Flag("--file", Kind.PATH, null, 0, 0, null, null),
            new Flag("--keep", Kind.SWITCH, null, 0, 0, null, null),
            new Flag("--buffer-size", Kind.SIZE, null, 1, MAX_BUFFER_SIZE, null, List.of("buffering", "jni_ops", "text_lines", "typed_arrays")),
            new Flag("--text", Kind.CHOICE, "lf", 0, 0, List.of("lf", "crlf", "cr", "mixed", "utf8"), List.of("text_lines")),
            new Flag("--type", Kind.CHOICE, "int", 0, 0, List.of("int", "double"), List.of("typed_arrays", "typed_ffm")),
            new Flag("--threads", Kind.COUNT, "1", 1, MAX_THREADS, null, List.of("shared_file", "small_reads")),
            new Flag("--depth", Kind.COUNT, "1", 1, MAX_DEPTH, null, List.of("small_reads")),
            new Flag("--procs", Kind.COUNT, "1", 1, MAX_PROCS, null, List.of("mpi_file")),
            new Flag("--lock", Kind.CHOICE, "none", 0, 0, List.of("none", "region"), List.of("shared_file", "mpi_file")));

    /** A flag's value as its kind reads it (C's take also puts it where it goes). */
    static Object take(Flag f, String value, List<String> strategies) throws Harness.UsageError {
        return switch (f.kind()) {
            case CHOICE -> oneOf(f.name(), value, f.allowed() != null ? f.allowed() : strategies);
            case SIZE -> parseSize(f.name(), value, f.min(), f.max());
            case COUNT -> count(f.name(), value, f.min(), f.max());
            case PATH -> value;
            case SWITCH -> true;
        };
    }

    static Harness.Options parse(String snippet, List<String> strategies, String[] args) throws Harness.UsageError {
        Map<String, Object> given = new HashMap<>();  // a flag the snippet does not take stays 0 or null
        given.put("--strategy", strategies.get(0));
        for (Flag f : FLAGS) {
            if (f.takenBy(snippet) && f.fallback() != null) given.put(f.name(), take(f, f.fallback(), strategies));
        }
        for (int i = 0; i < args.length; i++) {
            String flag = args[i], value = null;
            int eq = flag.indexOf('=');
            if (flag.startsWith("--") && eq > 0) {  // --flag=value, as well as --flag value
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            }
            if (!flag.startsWith("--")) throw new Harness.UsageError("unexpected argument '" + flag + "' (flags start with --)");
            String name = flag;
            Flag f = FLAGS.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() -> new Harness.UsageError("unknown flag " + name
                    + " (allowed: " + String.join(" ", FLAGS.stream().filter(x -> x.takenBy(snippet)).map(Flag::name).toList()) + ")"));
            if (!f.takenBy(snippet)) throw new Harness.UsageError(flag + " is not used by " + snippet);
            if (f.kind() == Kind.SWITCH && value != null) throw new Harness.UsageError(flag + " takes no value");
            if (f.kind() != Kind.SWITCH && value == null && i + 1 >= args.length) throw new Harness.UsageError(flag + " needs a value");
            if (f.kind() != Kind.SWITCH && value == null) value = args[++i];
            given.put(flag, take(f, value, strategies));
        }
        String file = (String) given.get("--file");
        // one name for the whole team: process 0's id, known to all (each process's own would give each its own file)
        if (file == null) file = Space.defaultScratch() + "/" + snippet + "-" + Workers.team.sum(Workers.team.rank() == 0 ? ProcessHandle.current().pid() : 0) + ".dat";
        Harness.Options o = new Harness.Options(snippet, (String) given.get("--strategy"), (String) given.get("--op"), (String) given.get("--pattern"),
                number(given, "--file-size"), (int) number(given, "--op-size"), (int) number(given, "--buffer-size"),
                (int) number(given, "--repeat"), (int) number(given, "--warmup"), (int) number(given, "--threads"), (int) number(given, "--depth"),
                (int) number(given, "--procs"), (String) given.get("--cache"), (String) given.get("--text"), (String) given.get("--type"),
                (String) given.get("--lock"), Path.of(file), number(given, "--seed"), given.containsKey("--keep"));
        if (o.opSize() > o.fileSize()) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " is larger than --file-size " + o.fileSize()
                    + " (an operation must fit in the file)");
        }
        long blocks = (o.fileSize() + o.opSize() - 1) / o.opSize();
        if (o.workers() > blocks) {  // a snippet runs threads or processes, never both
            String flag = o.procs() > 0 ? "--procs" : "--threads", worker = o.procs() > 0 ? "process" : "thread";
            throw new Harness.UsageError(flag + " " + o.workers() + " is more than the file's " + blocks + " blocks of --op-size "
                    + human(o.opSize()) + " (each " + worker + " needs at least one block of its own)");
        }
        if (o.procs() > 0 && o.procs() != Workers.team.size()) {
            throw new Harness.UsageError("--procs " + o.procs() + ", but mpirun started " + Workers.team.size() + " process"
                    + (Workers.team.size() == 1 ? "" : "es") + " (start it with mpirun -np " + o.procs() + ")");
        }
        int pathBytes = file.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;  // the kernel's limit counts bytes, as C's strlen does
        if (pathBytes >= Space.MAX_PATH) {  // refused whole, as in C, where a path cut short could name another file
            throw new Harness.UsageError("--file: a path of " + pathBytes + " bytes is too long (at most " + (Space.MAX_PATH - 1) + ")");
        }
        if (file.indexOf('\uFFFD') >= 0) {  // the JVM decoded a byte that is not UTF-8: no such name can be opened
            throw new Harness.UsageError("--file " + file + " is not valid UTF-8 (both languages take UTF-8 file names: Java can open no other)");
        }
        return o;
    }

    /** A size or count parse() holds, 0 when the snippet does not take its flag. */
    private static long number(Map<String, Object> given, String flag) {
        return (Long) given.getOrDefault(flag, 0L);
    }

    /** For snippets whose operations are served from their own buffer: each must fit, and never straddle two fills. */
    static void checkOperationFitsBuffer(Harness.Options o) throws Harness.UsageError {
        if (o.bufferSize() > 0 && o.opSize() > o.bufferSize()) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " is larger than --buffer-size " + o.bufferSize()
                    + " (an operation must fit in the buffer)");
        }
        if (o.bufferSize() > 0 && o.bufferSize() % o.opSize() != 0) {
            throw new Harness.UsageError("--buffer-size " + o.bufferSize() + " is not a multiple of --op-size " + o.opSize()
                    + " (an operation must never straddle two buffer fills)");
        }
    }

    /**
     * For snippets whose threads or processes each move their share of one int array: whole ints,
     * shares moved in order, a file that fits in memory when the strategy maps it (maps), and an array
     * (for a process, its largest share) within memoryLimit().
     */
    static void checkIntShares(Harness.Options o, boolean maps) throws Harness.UsageError {
        boolean processes = o.procs() > 0;
        if (o.opSize() % 4 != 0 || o.fileSize() % 4 != 0) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " and --file-size " + o.fileSize() + " must be multiples of 4 (whole ints)");
        }
        if (o.pattern().equals("rand")) {
            throw new Harness.UsageError("--pattern rand: each " + (processes ? "process" : "thread") + " moves its share in order (allowed: seq)");
        }
        long mappable = Space.availableMemory() / 2;
        if (maps && o.fileSize() > mappable) {
            throw new Harness.UsageError("--file-size " + o.fileSize() + ": too large to map here (at most "
                    + (mappable >> 20) + "m, half of the memory free now; use a smaller file or a strategy that does not map)");
        }
        long blocks = (o.fileSize() + o.opSize() - 1) / o.opSize();
        long held = processes ? (blocks + o.procs() - 1) / o.procs() * o.opSize() : o.fileSize();
        if (held > Space.memoryLimit()) {
            throw new Harness.UsageError("--file-size " + o.fileSize() + ": " + (processes ? "a process's share of the array" : "the shared array")
                    + " would not fit (at most " + (Space.memoryLimit() >> 20) + "m, half of the JVM's heap limit; raise it with -Xmx)");
        }
    }

    static String oneOf(String flag, String value, List<String> allowed) throws Harness.UsageError {
        if (!allowed.contains(value)) throw new Harness.UsageError(flag + " " + value + ": must be one of " + String.join(", ", allowed));
        return value;
    }

    /** A size in bytes: digits with an optional k, m or g suffix (powers of 1024). */
    static long parseSize(String flag, String value, long min, long max) throws Harness.UsageError {
        String digits = value.toLowerCase(Locale.ROOT);
        int shift = switch (digits.isEmpty() ? ' ' : digits.charAt(digits.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        if (shift > 0) digits = digits.substring(0, digits.length() - 1);
        if (!digits.matches("[0-9]{1,12}")) {
            throw new Harness.UsageError(flag + " " + value + ": not a size (use a whole number with an optional k, m or g suffix, e.g. 4k, 16m, 1g)");
        }
        long number = Long.parseLong(digits);
        long bytes = number > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : number << shift;
        if (bytes < min || bytes > max) {
            throw new Harness.UsageError(flag + " " + value + ": must be between " + human(min) + " and " + human(max));
        }
        return bytes;
    }

    static long count(String flag, String value, long min, long max) throws Harness.UsageError {
        boolean digits = value.matches("[0-9]{1,19}") && (value.length() < 19 || value.compareTo("9223372036854775807") <= 0);
        if (!digits || Long.parseLong(value) < min || Long.parseLong(value) > max) {
            throw new Harness.UsageError(flag + " " + value + ": must be a whole number between " + min + " and " + max);
        }
        return Long.parseLong(value);
    }

    static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + "g";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + "m";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + "k";
        return Long.toString(bytes);
    }
}
