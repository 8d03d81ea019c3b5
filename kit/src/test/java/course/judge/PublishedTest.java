package course.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Course;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublishedTest {
    static final Set<String> SOURCES = Set.of("xu-guo", "awan", "bonachea", "lord-reddy", "openjdk");
    static Published published;
    static List<CSVRecord> rows = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        published = Published.load();
        Path folder = Course.home().resolve("data/published");
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".csv")).sorted().toList()) {
                try (Reader in = Files.newBufferedReader(file)) {
                    CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build().parse(in).forEach(rows::add);
                }
            }
        }
    }

    @Test
    void everyRowIsLoadedAndIdsAreUnique() {
        assertTrue(rows.size() > 100, "rows: " + rows.size());
        Set<String> ids = new HashSet<>();
        for (CSVRecord r : rows) assertTrue(ids.add(r.get("id")), "duplicate id " + r.get("id"));
        for (CSVRecord r : rows) assertEquals(r.get("statement"), published.get(r.get("id")).statement(), "every row loaded as itself");
    }

    @Test
    void everyRowCitesWhereAndHasAKnownSourcePrefix() {
        for (CSVRecord r : rows) {
            Published.Claim c = published.get(r.get("id"));
            assertFalse(c.where().isBlank(), c.id() + " has no where");
            assertFalse(c.source().isBlank(), c.id() + " has no source");
            assertFalse(c.statement().isBlank(), c.id() + " has no statement");
            String prefix = c.id().substring(0, c.id().indexOf('.'));
            assertTrue(SOURCES.contains(prefix), c.id());
            assertEquals(c.source() + ", " + c.where(), c.citation());
        }
    }

    @Test
    void valuesParseAndUnitsGoWithNumbers() {
        for (CSVRecord r : rows) {
            Published.Claim c = published.get(r.get("id"));
            if (r.get("value").isEmpty()) {
                assertTrue(Double.isNaN(c.value()), c.id());
                assertEquals("claim", c.shown());
            } else {
                assertEquals(Double.parseDouble(r.get("value")), c.value(), c.id());
                assertFalse(c.unit().isEmpty(), c.id() + " has a number but no unit");
            }
            if (c.kind().equals("ratio") || c.kind().equals("percent")) {
                assertFalse(Double.isNaN(c.value()), c.id() + " is a " + c.kind() + " without a number");
            }
        }
    }

    @Test
    void knownClaims() {
        Published.Claim c = published.get("xu-guo.raw-1byte.java-over-c-time-seq");
        assertEquals("Xu & Guo", c.source());
        assertEquals("§4.2, Fig 4.1", c.where());
        assertEquals("raw-1byte", c.experiment());
        assertEquals(2.0, c.value());
        assertEquals("x", c.unit());
        assertEquals("ratio", c.kind());
        assertEquals("2×", c.shown());
        assertEquals("Xu & Guo, §4.2, Fig 4.1", c.citation());

        Published.Claim share = published.get("xu-guo.raw-1byte.syscall-cpu-share-c.100mb");
        assertEquals(98.0, share.value());
        assertEquals("98%", share.shown());
        assertEquals("100", share.x());
        assertEquals("MB", share.xUnit());
    }

    @Test
    void unknownIdThrows() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> published.get("xu-guo.nope"));
        assertTrue(e.getMessage().contains("xu-guo.nope"), e.getMessage());
    }

    /** Every claim a lab notebook names must exist, or the lab fails halfway through. */
    @Test
    void everyClaimTheLabsCiteExists() throws IOException {
        Pattern id = Pattern.compile("\\b(?:xu-guo|awan|bonachea|lord-reddy|openjdk)\\.[a-z0-9-]+(?:\\.[a-z0-9-]+)+");
        int found = 0;
        try (Stream<Path> notebooks = Files.list(Course.home().resolve("labs"))) {
            for (Path nb : notebooks.filter(f -> f.toString().endsWith(".ipynb")).toList()) {
                Matcher m = id.matcher(Files.readString(nb));
                while (m.find()) {
                    found++;
                    String claimId = m.group();
                    assertTrue(rows.stream().anyMatch(r -> r.get("id").equals(claimId)),
                            nb.getFileName() + " cites " + claimId + ", which data/published does not have");
                }
            }
        }
        assertTrue(found > 0, "the labs cite published claims");
    }

    @Test
    void shownFormats() {
        assertEquals("3×", claim(3, "x").shown());
        assertEquals("2.5×", claim(2.5, "x").shown());
        assertEquals("98%", claim(98, "%").shown());
        assertEquals("128 MB", claim(128, "MB").shown());
        assertEquals("12.5 MB/s", claim(12.5, "MB/s").shown());
        assertEquals("claim", claim(Double.NaN, "").shown());
    }

    @Test
    void loadsAnyFolderAndSkipsOtherFiles(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.csv"), "id,source,where,experiment,series,x,x_unit,value,unit,kind,statement\n"
                + "awan.one,Someone,\"§1, Fig 2\",exp,s,,,1.5,x,ratio,\"A statement, with a comma\"\n"
                + "awan.two,Someone,§2,exp,s,,,,,claim,Words only\n");
        Files.writeString(dir.resolve("notes.txt"), "not,a,csv");
        Published p = new Published(dir);
        assertEquals("§1, Fig 2", p.get("awan.one").where());
        assertEquals("A statement, with a comma", p.get("awan.one").statement());
        assertEquals(1.5, p.get("awan.one").value());
        assertTrue(Double.isNaN(p.get("awan.two").value()));
    }

    @Test
    void anIdGivenTwiceIsRefusedNotSilentlyReplaced(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.csv"), "id,source,where,experiment,series,x,x_unit,value,unit,kind,statement\n"
                + "awan.one,Someone,§1,exp,s,,,1.5,x,ratio,First\n" + "awan.one,Someone,§2,exp,s,,,2,x,ratio,Second\n");
        String said = assertThrows(IllegalStateException.class, () -> new Published(dir)).getMessage();
        assertEquals(dir.resolve("a.csv") + ": the id awan.one is given twice; each row needs its own", said);
    }

    /** data/published's format has one owner, this loader: a row it cannot judge on stops the load, saying which and why. */
    @Test
    void aRowThatIsNotAFigureIsRefusedNamingItsFileAndId(@TempDir Path dir) throws IOException {
        String header = String.join(",", Published.COLUMNS) + "\n";
        String[][] bad = {
            {"awan.x,S,§1,e,s,,,2,x,ratio,", "every row cites its source and where, and says what"},
            {"nobody.x,S,§1,e,s,,,2,x,ratio,St", "an id is its study and a name"},
            {"awan.x,S,§1,e,s,,,2,x,guess,St", "kind guess is not one of"},
            {"awan.x,S,§1,e,s,,,,,ratio,St", "only claims and set-up facts may lack a value"},
            {"awan.x,S,§1,e,s,,,2,,claim,St", "a claim in words has no value"},
            {"awan.x,S,§1,e,s,,,two,x,ratio,St", "value two is not a number"},
            {"awan.x,S,§1,e,s,,,NaN,x,ratio,St", "value NaN is not a number"},
            {"awan.x,S,§1,e,s,,,2,furlongs,ratio,St", "unit furlongs is not one of"}};
        for (String[] row : bad) {
            Files.writeString(dir.resolve("a.csv"), header + row[0] + "\n");
            String said = assertThrows(IllegalStateException.class, () -> new Published(dir)).getMessage();
            assertTrue(said.startsWith(dir.resolve("a.csv") + ": row " + row[0].substring(0, row[0].indexOf(',')) + ": " + row[1]), said);
        }
        Files.writeString(dir.resolve("a.csv"), header);
        assertTrue(assertThrows(IllegalStateException.class, () -> new Published(dir)).getMessage().endsWith(": no rows (a file of figures holds at least one)"));
        Files.writeString(dir.resolve("a.csv"), "id,statement\nawan.x,St\n");
        assertTrue(assertThrows(IllegalStateException.class, () -> new Published(dir)).getMessage().endsWith("its columns must be " + String.join(",", Published.COLUMNS)));
    }

    @Test
    void everyStudyHasItsFiguresHere() {
        for (String study : List.of("xu-guo", "bonachea", "lord-reddy", "awan")) {
            assertTrue(rows.stream().filter(r -> r.get("id").startsWith(study + ".")).count() >= 20, study + ": at least 20 figures and claims");
        }
    }

    static Published.Claim claim(double value, String unit) {
        return new Published.Claim("t", "S", "W", "e", "s", "", "", value, unit, "ratio", "st");
    }

    @Test
    void findsATableCell() {
        Published p = Published.load();
        assertEquals(940.0, p.find("Lord & Reddy", "text-readline", "bufferedreader-8192", "250").value());
        assertEquals(null, p.find("Lord & Reddy", "text-readline", "bufferedreader-8192", "251"));
    }
}
