package org.bgbench.model;

/** Bad user input: the message names the parameter and what is accepted. */
public class InvalidParameterException extends IllegalArgumentException {
    private final String parameter;

    public InvalidParameterException(String parameter, String message) {
        super(parameter + ": " + message);
        this.parameter = parameter;
    }

    public String parameter() {
        return parameter;
    }
}
