/** The charts of the scaling commands. */
package org.bgbench.scaling.report;
