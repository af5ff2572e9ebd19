/** The files and charts of the scaling commands, and the check that tells a one-machine cluster apart. */
package org.bgbench.scaling.report;
