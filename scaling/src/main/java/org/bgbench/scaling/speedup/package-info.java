/**
 * SoAR speedup and scaleup (scalability paper): a store rated in several configurations under one SLA, the ratios
 * SoAR(N)/SoAR(1) or SoAR(N·size, N)/SoAR(size, 1), and each configuration's bottleneck from its hosts' resources.
 */
package org.bgbench.scaling.speedup;
