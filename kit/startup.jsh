// What the course kernel runs before a notebook's first cell (setup/setup.sh names this file in the kernelspec):
// the kit's packages imported, as its jar is on the classpath, so a lab's cells name Lab, Charts, Results and
// Estimate without a line of imports per package. ArchitectureTest holds this list to the kit's packages.
import course.*;
import course.claims.*;
import course.classroom.*;
import course.profile.*;
import course.run.*;
import course.show.*;
import course.judge.*;
import course.record.*;
import course.base.*;
// The stop button by signal (the kernelspec's interrupt_mode), a burst of presses counted once.
StopButton.install();
// A shutdown or restart ends the kernel's JVM at once, not after JJava's idle cell threads (KernelEnd says why).
KernelEnd.install();
