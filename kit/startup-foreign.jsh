// What the course kernel imports on a JDK that has java.lang.foreign (final in Java 22): Arena, MemorySegment,
// ValueLayout and the rest, for lab 10's mapping exercise. setup/kernelspec.py names this file only there, so the
// same cell compiles on an older JDK too (as a method that says it cannot run) instead of failing on its import.
import java.lang.foreign.*;
