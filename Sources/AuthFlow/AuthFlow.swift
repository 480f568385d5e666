public enum AuthFlowPlaceholder {}
