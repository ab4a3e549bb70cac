// The FlowHTTP module; see Package.swift for its place in the import graph.
