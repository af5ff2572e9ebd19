/**
 * The elasticity paper's methodology (its sections 2 and 5): request sets timed back to back, the delta-time stability
 * test, the add-node moment, the elasticity score (A+B)/((Rt1+Rt2)·(Av1+Av2)) and the scalability score
 * (Avg_2N − Avg_N)/Avg_N.
 */
package org.bgbench.scaling.elasticity;
