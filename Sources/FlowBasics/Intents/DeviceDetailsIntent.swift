import FlowIntents

/// What machine this is: Shortcuts' "Get Device Details", for the Linux machine a workflow runs on.
struct DeviceDetailsIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Device Details"
  static let description = IntentDescription(
    "The machine the workflow runs on: its host name, the user running it, the operating system and its version (from os-release), the kernel release and the architecture; '${device.host-name}' and so on reach each."
  )
  static let machineAccess = [MachineAccess(.readsDevice)]

  func perform() async throws -> some ReturnsValue<DeviceEntity> {
    .result(value: DeviceEntity.current())
  }
}
