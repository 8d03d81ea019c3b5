package course.record;

import course.base.Exec;
import java.nio.file.Path;
import java.util.List;

/** The file system a folder (the scratch folder) lives on: its name as the kernel gives it, and the mount options that say how it caches and locks. */
public final class Mount {
    private Mount() {
    }

    /** The scratch folder's file system as the kernel names it (findmnt; stat -f calls ext4 "ext2/ext3"). */
    public static String filesystem(Path scratch) {
        try {
            return Exec.run(List.of("findmnt", "-n", "-o", "FSTYPE", "-T", scratch.toString()), "findmnt").strip();
        } catch (RuntimeException noFindmnt) {
            // fall back to stat below
        }
        return Exec.run(List.of("stat", "-f", "-c", "%T", scratch.toString()), "stat").strip();
    }

    /**
     * The options the scratch folder's file system is mounted with that say how it caches, locks and syncs
     * ("rw,vers=3,noac,…": what NFS keeps consistent between clients), from findmnt; "unknown" without it. Only those:
     * the card travels in hand-ins, and a mount's other options can name a server's address or a user.
     */
    static String options(Path scratch) {
        try {
            return told(Exec.run(List.of("findmnt", "-n", "-o", "OPTIONS", "-T", scratch.toString()), "findmnt").strip());
        } catch (RuntimeException noFindmnt) {
            return "unknown";
        }
    }

    /** Of a mount's options, those a card keeps (TOLD_OPTIONS), in their order. */
    static String told(String options) {
        return String.join(",", java.util.Arrays.stream(options.split(",")).filter(o -> TOLD_OPTIONS.contains(o.split("=")[0])).toList());
    }

    /** The mount options a machine card keeps (see options). */
    static final java.util.Set<String> TOLD_OPTIONS = java.util.Set.of("rw", "ro", "sync", "dirsync", "noac", "actimeo", "acregmin", "acregmax",
            "acdirmin", "acdirmax", "lookupcache", "nolock", "lock", "local_lock", "vers", "nfsvers", "hard", "soft", "proto", "rsize", "wsize",
            "nconnect", "data", "barrier", "nobarrier", "dax");
}
