// Package oippb is the generated Go code of the Open Inference Protocol's
// gRPC service (inference.proto): the messages and the
// GRPCInferenceService server and client interfaces that package server
// implements and its tests call.
package oippb

//go:generate protoc --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative inference.proto
